import FailscopeModel
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads JUnit/xUnit XML as Xcode and Swift tooling write it, streaming, within bounded memory.
///
/// Shapes: root `<testsuites>` or `<testsuite>`, suites nested to 256 levels (a case
/// without `classname` belongs to its innermost suite), `<testcase>` with `<failure>`, `<error>`,
/// `<skipped>` (several in one case: error > failure > skipped), Surefire/Marathon
/// `flakyFailure`/`flakyError` (earlier failed attempts of a test that then passed) and
/// `rerunFailure`/`rerunError` (later failed attempts), repeated `<testcase>` elements of one identity
/// (retries or distinct executions: `JUnitExecutions`), parameterized cases told apart by the `argument`
/// property, destinations from suite or case properties (`Destination`) or an XCTestHTMLReport class name
/// (`LoginTests - iPhone 15 - 17.5`), `system-out`/`system-err` kept up to `outputLimit` bytes. Suites and
/// names are the reporter's (`ReportIdentity`).
///
/// Counts come from the elements, never from a header's `tests`/`failures` (a disagreement is a warning).
/// A missing or unreadable `time` is an unknown duration (`nil`), never 0 and never the suite's time.
/// Malformed XML that `XMLRepairReader` can repair is repaired and a warning says what was done. Elements
/// nested deeper than 256 levels are refused (JUnit nests a few; a hostile file nests millions).
public struct JUnitImporter: Sendable {
    /// Bytes of `system-out`/`system-err` kept per test (the rest is counted, not stored).
    public var outputLimit: Int
    /// Bytes of a failure's text kept.
    public var failureTextLimit: Int

    public init(outputLimit: Int = 16 * 1024, failureTextLimit: Int = 8 * 1024) {
        self.outputLimit = outputLimit
        self.failureTextLimit = failureTextLimit
    }

    /// Parses the file at `path`.
    /// - Parameter progress: called now and then with (bytes read, file size).
    /// - Throws: `ImportError` with line and column for XML the repairs cannot save, a truncated file, or an
    ///   XML root that is not JUnit.
    public func parse(fileAt path: String, progress: (@Sendable (Int64, Int64) -> Void)? = nil) throws(ImportError)
        -> ParsedReport
    {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, reason: "cannot open the file for reading")
        }
        defer { try? handle.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        let reader = XMLRepairReader(fileHandle: handle)
        return try parse(reader: reader, name: path, size: size, progress: progress)
    }

    /// Parses XML held in memory; `name` is used in errors.
    public func parse(data: Data, name: String = "<data>") throws(ImportError) -> ParsedReport {
        try parse(reader: XMLRepairReader(data: data), name: name, size: Int64(data.count), progress: nil)
    }

    func parse(
        reader: XMLRepairReader, name: String, size: Int64, progress: (@Sendable (Int64, Int64) -> Void)?
    ) throws(ImportError) -> ParsedReport {
        let stream = RepairingInputStream(reader: reader, size: size, progress: progress)
        let parser = XMLParser(stream: stream)
        let delegate = JUnitParserDelegate(importer: self, reader: reader)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let failure = delegate.failure {
            throw ImportError(file: name, line: failure.line, column: failure.column, reason: failure.reason)
        }
        if let deep = reader.depthExceeded {
            throw ImportError(
                file: name, line: deep.line, column: deep.column,
                reason:
                    "elements nested deeper than \(reader.maxDepth) levels (<\(deep.element)> opens level \(reader.maxDepth + 1)): not a JUnit report, read no further"
                    + delegate.readSoFar)
        }
        // A file cut short: say so, with the element left open, rather than the parser's complaint about its end.
        if let truncation = reader.truncation,
            delegate.parseError.map({ $0.code == 5 || $0.line >= truncation.parserLine - 1 }) ?? true
        {
            var reason = "the file ends"
            if let inside = truncation.inside { reason += " inside \(inside)" }
            if let open = truncation.openElement {
                reason += " before <\(open)>"
                if let openLine = truncation.openElementLine { reason += " (opened on line \(openLine))" }
                reason += " is closed"
            }
            throw ImportError(
                file: name, line: truncation.line, column: truncation.column,
                reason: reason + ": the report is truncated" + delegate.readSoFar)
        }
        if !ok || delegate.parseError != nil {
            let error =
                delegate.parseError ?? parser.parserError.map {
                    ParseProblem(line: parser.lineNumber, column: parser.columnNumber, reason: Self.reason(for: $0))
                }
                ?? ParseProblem(line: parser.lineNumber, column: parser.columnNumber, reason: "the XML parser stopped")
            throw ImportError(
                file: name, line: error.line, column: error.column,
                reason: "malformed XML: \(error.reason)\(delegate.readSoFar)")
        }
        guard delegate.sawRoot else {
            throw ImportError(file: name, line: 1, column: 1, reason: "no XML element found: not a JUnit report")
        }
        return delegate.report()
    }

    /// A readable reason for an `XMLParser` error (libxml2's codes, `XMLParser.ErrorCode`).
    static func reason(for error: any Error) -> String {
        let code = (error as NSError).code
        // libxml2's xmlParserErrors (libxml/xmlerror.h), which NSXMLParserErrorDomain codes mirror.
        let known: [Int: String] = [
            1: "internal parser error (a text longer than 10 MB?)", 4: "the document is empty",
            5: "premature end of data", 6: "invalid character reference", 7: "invalid character reference",
            8: "invalid character reference", 9: "a character XML 1.0 does not allow",
            23: "an entity reference is not terminated with ';'", 26: "undeclared entity",
            31: "unknown encoding", 32: "unsupported encoding", 38: "'<' inside an attribute value",
            39: "an attribute value is not quoted", 40: "an attribute value is not closed",
            41: "an attribute has no value", 42: "an attribute is defined twice", 45: "a comment is not closed",
            63: "a CDATA section is not closed", 65: "a space is required here", 68: "a name is expected here",
            73: "'>' expected", 76: "an end tag does not match its start tag", 77: "a tag is not closed",
            85: "elements are not balanced", 86: "extra content after the document's end", 111: "parsing stopped",
        ]
        let text = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String
        return known[code] ?? text ?? "XML parser error \(code)"
    }
}

struct ParseProblem {
    var line: Int
    var column: Int
    var reason: String
    var code = 0
}

/// The `XMLParserDelegate` behind `JUnitImporter`: builds test results as elements close, and decides at the
/// end which repeated elements are retries (`JUnitExecutions`).
final class JUnitParserDelegate: NSObject, XMLParserDelegate {
    private struct Suite {
        var name: String?
        /// Where this suite's destination properties apply from: the index of its first result.
        var firstResult: Int
        var destination = Destination()
        /// Counts `<testsuite>` elements, so that two suites of the same name are two places.
        var place: Int
    }

    private enum ResultKind: String {
        case failure, error, skipped, flakyFailure, flakyError, rerunFailure, rerunError
    }

    private struct ResultElement {
        var kind: ResultKind
        var attributes: [String: String]
        var text: BoundedText
    }

    private struct Case {
        var attributes: [String: String]
        var suite: Suite
        var line: Int
        var results: [ResultElement] = []
        var properties: [(String, String)] = []
        var systemOut: BoundedText
        var systemErr: BoundedText
    }

    private let importer: JUnitImporter
    private let reader: XMLRepairReader

    private var suites: [Suite] = []
    private var current: Case?
    private var currentResult: ResultElement?
    private var propertyName: String?
    private var propertyText = BoundedText(limit: 4096)
    private var inCaseOutput: String?  // "system-out" / "system-err" directly in the test case
    private var droppedAtStart: Int64 = 0
    /// An element inside a failure/flaky element (`stackTrace`, `system-err`): only `stackTrace` text is kept.
    private var resultChild: String?
    private var depth = 0
    private var caseCount = 0
    private var results: [TestResult] = []
    /// Per result, in `results` order: where it ran and which element it came from.
    private var executions = JUnitExecutions()
    private var suitePlaces = 0
    private var rootName: String?
    private var warnings: [String] = []
    private var rootCounters: [String: String] = [:]
    private var childCounterSum = 0
    private var childCountersSeen = false
    private var childTimeSum: Double?
    private var unreadableTimes = 0
    private var strayResults = 0
    private var sessionIssues = 0
    private var startedAt: Date?
    private var rootTime: Double?
    private(set) var sawRoot = false
    private(set) var parseError: ParseProblem?
    private(set) var failure: ParseProblem?

    init(importer: JUnitImporter, reader: XMLRepairReader) {
        self.importer = importer
        self.reader = reader
    }

    /// `; N complete test cases were read before it` for error messages.
    var readSoFar: String {
        caseCount == 0 ? "" : "; \(caseCount) complete test case\(caseCount == 1 ? " was" : "s were") read before it"
    }

    private func text(_ value: String) -> String {
        reader.repairs.controlCharacters > 0 ? XMLRepairReader.restore(value) : value
    }

    // MARK: Elements

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String]
    ) {
        depth += 1
        if !sawRoot {
            sawRoot = true
            guard elementName == "testsuites" || elementName == "testsuite" else {
                failure = ParseProblem(
                    line: parser.lineNumber, column: parser.columnNumber,
                    reason:
                        "unsupported format: the XML root is <\(elementName)>, not JUnit's <testsuites> or <testsuite>")
                parser.abortParsing()
                return
            }
            rootCounters = attributeDict
            rootName = attributeDict["name"].map(text)
            rootTime = ReportDuration.seconds(attributeDict["time"])
        }
        switch elementName {
        case "testsuite":
            if depth == 2, rootCounters["tests"] == nil, let tests = attributeDict["tests"].flatMap({ Int($0) }) {
                childCounterSum += tests
                childCountersSeen = true
            }
            if depth == 2, let time = ReportDuration.seconds(attributeDict["time"]) {
                childTimeSum = (childTimeSum ?? 0) + time
            }
            if let stamp = attributeDict["timestamp"].flatMap(Self.parseTimestamp) {
                startedAt = min(startedAt ?? stamp, stamp)
            }
            suitePlaces += 1
            if let tests = attributeDict["tests"].flatMap({ Int($0) }) {
                executions.claim(tests: tests, place: suitePlaces)
            }
            suites.append(Suite(name: attributeDict["name"].map(text), firstResult: results.count, place: suitePlaces))
        case "testcase":
            current = Case(
                attributes: attributeDict.mapValues(text),
                suite: suites.last ?? Suite(name: nil, firstResult: 0, place: 0), line: parser.lineNumber,
                systemOut: BoundedText(limit: importer.outputLimit), systemErr: BoundedText(limit: importer.outputLimit)
            )
        case _ where currentResult != nil:
            resultChild = elementName
        case "failure", "error", "skipped", "flakyFailure", "flakyError", "rerunFailure", "rerunError":
            guard current != nil else {
                if elementName == "skipped" || elementName == "failure" || elementName == "error" { strayResults += 1 }
                return
            }
            if currentResult == nil {
                droppedAtStart = reader.droppedTextBytes
                currentResult = ResultElement(
                    kind: ResultKind(rawValue: elementName)!, attributes: attributeDict.mapValues(text),
                    text: BoundedText(limit: importer.failureTextLimit))
            }
        case "property":
            propertyName = attributeDict["name"].map(text)
            propertyText = BoundedText(limit: 4096)
            if let name = propertyName, let value = attributeDict["value"].map(text) {
                addProperty(name, value)
                propertyName = nil
            }
        case "system-out", "system-err":
            if current != nil, currentResult == nil {
                inCaseOutput = elementName
                droppedAtStart = reader.droppedTextBytes
            }
        default:
            break
        }
    }

    private func addProperty(_ name: String, _ value: String) {
        if current != nil {
            current!.properties.append((name, value))
        } else if !suites.isEmpty {
            suites[suites.count - 1].destination.set(property: name, value: value)
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        depth -= 1
        if resultChild == elementName {
            resultChild = nil
            return
        }
        switch elementName {
        case "testsuite":
            // A suite's properties (written before or after its cases) name where its cases ran, unless an
            // inner suite or the case itself already did.
            if let suite = suites.popLast(), !suite.destination.isEmpty {
                executions.fill(from: suite.destination, startingAt: suite.firstResult)
            }
        case "testcase":
            if let finished = current { finishCase(finished) }
            current = nil
            currentResult = nil
        case "failure", "error", "skipped", "flakyFailure", "flakyError", "rerunFailure", "rerunError":
            if var result = currentResult, result.kind.rawValue == elementName {
                result.text.noteDropped(reader.droppedTextBytes - droppedAtStart)
                current?.results.append(result)
                currentResult = nil
            }
        case "property":
            if let name = propertyName {
                addProperty(name, propertyText.value.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            propertyName = nil
        case "system-out", "system-err":
            if inCaseOutput == elementName {
                let dropped = reader.droppedTextBytes - droppedAtStart
                if elementName == "system-out" {
                    current?.systemOut.noteDropped(dropped)
                } else {
                    current?.systemErr.noteDropped(dropped)
                }
                inCaseOutput = nil
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        collect(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if currentResult != nil {
            if resultChild == nil || resultChild == "stackTrace" { currentResult!.text.append(CDATABlock) }
        } else if let output = inCaseOutput {
            if output == "system-out" {
                current?.systemOut.append(CDATABlock)
            } else {
                current?.systemErr.append(CDATABlock)
            }
        }
    }

    private func collect(_ string: String) {
        if propertyName != nil {
            propertyText.append(string)
        } else if currentResult != nil {
            if resultChild == nil || resultChild == "stackTrace" { currentResult!.text.append(string) }
        } else if let output = inCaseOutput {
            if output == "system-out" { current?.systemOut.append(string) } else { current?.systemErr.append(string) }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard self.parseError == nil, failure == nil else { return }
        self.parseError = ParseProblem(
            line: parser.lineNumber, column: parser.columnNumber, reason: JUnitImporter.reason(for: parseError),
            code: (parseError as NSError).code)
    }

    // MARK: Results

    private func finishCase(_ element: Case) {
        caseCount += 1
        let attributes = element.attributes
        // An empty or missing class name: the case belongs to its innermost suite.
        var classname =
            [attributes["classname"], attributes["class"], element.suite.name].lazy.compactMap { $0 }.first {
                !$0.isEmpty
            } ?? ""
        var destination = Destination()
        var arguments: String?
        var repetition: String?
        for (name, value) in element.properties {
            switch name.lowercased() {
            case "argument", "arguments": arguments = value
            case "repetition": repetition = value
            default: destination.set(property: name, value: value)
            }
        }
        if let (suite, device, os) = Self.splitDeviceSuffix(classname) {
            classname = suite
            destination.fill(from: Destination(name: device, os: os))
        }
        let suiteName = classname.isEmpty ? "(no suite)" : suite(of: classname, in: element)
        let rawName = attributes["name"].flatMap { $0.isEmpty ? nil : $0 } ?? "(unnamed test case \(caseCount))"
        let name = ReportIdentity.name(rawName)
        arguments = arguments.map { ReportIdentity.arguments($0, function: name) }
        var duration: Double?
        if let time = attributes["time"] {
            duration = ReportDuration.seconds(time)
            if duration == nil { unreadableTimes += 1 }
        }
        let startedAt = attributes["timestamp"].flatMap(Self.parseTimestamp)
        if element.suite.name == "Session-level issues"
            || element.results.contains(where: { $0.attributes["type"] == "Session-level failure" })
        {
            sessionIssues += 1
        }

        func failure(of result: ResultElement) -> Failure {
            let located = FailureText.locate(
                message: result.attributes["message"], text: result.text.value, type: result.attributes["type"],
                file: result.attributes["file"],
                line: result.attributes["line"], testFile: attributes["file"], testLine: attributes["line"])
            return Failure(
                message: text(located.message), location: located.location,
                isError: result.kind == .error || result.kind == .flakyError || result.kind == .rerunError)
        }
        func attempt(status: TestStatus, failures: [Failure], duration: Double?, skipReason: String? = nil)
            -> TestResult
        {
            TestResult(
                suite: suiteName, name: name, arguments: arguments, status: status, skipReason: skipReason,
                startedAt: startedAt, duration: duration, failures: failures)
        }

        var attempts: [TestResult] = []
        for flaky in element.results where flaky.kind == .flakyFailure || flaky.kind == .flakyError {
            attempts.append(
                attempt(
                    status: flaky.kind == .flakyError ? .error : .failed, failures: [failure(of: flaky)],
                    duration: ReportDuration.seconds(flaky.attributes["time"])))
        }
        let main = element.results.filter { $0.kind == .failure || $0.kind == .error }
        let skipped = element.results.first { $0.kind == .skipped }
        let status: TestStatus
        if main.contains(where: { $0.kind == .error }) {
            status = .error
        } else if !main.isEmpty {
            status = .failed
        } else if skipped != nil
            || ["disabled", "skipped", "notrun"].contains(attributes["status"]?.lowercased() ?? "")
        {
            status = .skipped
        } else {
            status = .passed
        }
        var skipReason: String?
        if status == .skipped, let skipped {
            let reason = (skipped.attributes["message"] ?? skipped.text.value).trimmingCharacters(
                in: .whitespacesAndNewlines)
            skipReason = reason.isEmpty ? nil : text(reason)
        }
        var mainResult = attempt(
            status: status, failures: main.map(failure(of:)), duration: duration, skipReason: skipReason)
        if element.systemOut.touched {
            mainResult.systemOut = text(element.systemOut.value)
        }
        if element.systemErr.touched {
            mainResult.systemErr = text(element.systemErr.value)
        }
        attempts.append(mainResult)
        for rerun in element.results where rerun.kind == .rerunFailure || rerun.kind == .rerunError {
            attempts.append(
                attempt(
                    status: rerun.kind == .rerunError ? .error : .failed, failures: [failure(of: rerun)],
                    duration: ReportDuration.seconds(rerun.attributes["time"])))
        }
        results.append(contentsOf: attempts)
        executions.append(
            element: caseCount, place: element.suite.place, repetition: repetition, hasArguments: arguments != nil,
            destination: destination, count: attempts.count)
    }

    /// The suite a class name names (`ReportIdentity.suite`), decided once per class and suite element:
    /// the cases of one class follow each other, and share the one string.
    private func suite(of classname: String, in element: Case) -> String {
        if let cached = suiteCache, cached.place == element.suite.place, cached.classname == classname {
            return cached.suite
        }
        let suite = ReportIdentity.suite(classname, hasModulePrefix: hasModulePrefix(classname, in: element))
        suiteCache = (classname, element.suite.place, suite)
        return suite
    }

    private var suiteCache: (classname: String, place: Int, suite: String)?

    /// Whether the first component of `classname` is the test bundle's module, as the report shows it: a
    /// suite or the root names the bundle (`FunChatikUITests.xctest`, `Smack(10)UITests.xctest` for
    /// `Smack_10_UITests.`), the innermost suite is named after that component alone (the bundle, not the
    /// class), or the writer always qualifies (SwiftPM's `TestResults` suite, xcbeautify's `All tests`).
    /// Without such a sign a dotted class name is kept whole: xcresult converters write nested Swift Testing
    /// suites as `Outer.Inner` with no module.
    private func hasModulePrefix(_ classname: String, in element: Case) -> Bool {
        guard let dot = classname.firstIndex(of: ".") else { return false }
        let first = String(classname[..<dot])
        if element.suite.name == first { return true }
        let names = suites.compactMap(\.name) + (rootName.map { [$0] } ?? [])
        if names.contains("TestResults") || rootName == "All tests" { return true }
        return names.contains { name in
            guard name.hasSuffix(".xctest") else { return false }
            let bundle = String(name.dropLast(".xctest".count))
            return bundle == first || Self.moduleName(ofBundle: bundle) == first
        }
    }

    /// The Swift module of a bundle name: characters that cannot be in an identifier become `_`.
    static func moduleName(ofBundle bundle: String) -> String {
        var name = String(
            bundle.unicodeScalars.map {
                ReportIdentity.isIdentifierScalar($0) ? Character($0) : "_"
            })
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// XCTestHTMLReport writes `Suite - Device - OS` as the class name: `("Suite", "Device", "OS")`.
    static func splitDeviceSuffix(_ classname: String) -> (String, String, String)? {
        // Most class names have no " - ": look before splitting.
        let bytes = Array(classname.utf8)
        guard bytes.count >= 3,
            (0..<(bytes.count - 2)).contains(where: {
                bytes[$0] == 0x20 && bytes[$0 + 1] == UInt8(ascii: "-") && bytes[$0 + 2] == 0x20
            })
        else { return nil }
        let parts = classname.components(separatedBy: " - ")
        guard parts.count >= 3, let os = parts.last, !os.isEmpty,
            os.allSatisfy({ $0.isNumber || $0 == "." }), os.first?.isNumber == true
        else { return nil }
        let suite = parts[0]
        let device = parts[1..<(parts.count - 1)].joined(separator: " - ")
        guard !suite.isEmpty, !device.isEmpty else { return nil }
        return (suite, device, os)
    }

    static func parseTimestamp(_ text: String) -> Date? {
        if let date = WireCoding.parseDate(text) { return date }
        // JUnit's timestamp is often local time without a zone ("2020-09-04T16:18:04.966371"): read it as UTC.
        let trimmed = text.split(separator: ".").first.map(String.init) ?? text
        return WireCoding.parseDate(trimmed + "Z")
    }

    func report() -> ParsedReport {
        var warnings = warnings
        if let summary = reader.repairs.summary { warnings.append(summary) }
        if reader.declarations > 0 { warnings.append("ignored a <!DOCTYPE> declaration (JUnit needs none)") }
        warnings.append(contentsOf: executions.decide(&results))
        var report = ParsedReport(
            format: .junit, results: results, warnings: [], startedAt: startedAt, duration: rootTime ?? childTimeSum,
            recovered: reader.repairs.total > 0)
        let logical = report.tests.count
        let claimed = Int(rootCounters["tests"] ?? "") ?? (childCountersSeen ? childCounterSum : nil)
        if let claimed, claimed != caseCount, claimed != logical {
            warnings.append(
                "the header says \(claimed) test\(claimed == 1 ? "" : "s") but the file has \(caseCount) <testcase> element\(caseCount == 1 ? "" : "s"); counted the elements"
            )
        }
        if unreadableTimes > 0 {
            warnings.append(
                "\(unreadableTimes) test case time\(unreadableTimes == 1 ? " was" : "s were") unreadable; imported as unknown"
            )
        }
        if strayResults > 0 {
            warnings.append(
                "\(strayResults) <skipped>/<failure>/<error> element\(strayResults == 1 ? "" : "s") outside any <testcase> ignored"
            )
        }
        if sessionIssues > 0 {
            warnings.append(
                "\(sessionIssues) issue\(sessionIssues == 1 ? "" : "s") recorded outside any test (session-level), imported as a test of suite 'Session-level issues'"
            )
        }
        if results.isEmpty {
            warnings.insert("empty report: 0 tests (suspicious: a run that lost its results, not a green run)", at: 0)
        }
        report.warnings = warnings
        return report
    }
}
