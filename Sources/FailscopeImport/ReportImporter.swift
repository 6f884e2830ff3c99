import FailscopeModel
import Foundation

/// Imports any supported report file: tells the format from the content, then runs its importer.
///
/// Detection reads the first 64 KiB: XML whose root is `<testsuites>`/`<testsuite>` is JUnit; JSON with
/// `testNodes` is `xcresulttool get test-results tests`; JSON with `_type` is the legacy xcresult graph;
/// JSON Lines (or a JSON array) of records with `kind` and `version` is a Swift Testing event stream.
/// Everything else is rejected with the reason (empty file, plain text, another XML or JSON format).
public struct ReportImporter: Sendable {
    public var junit: JUnitImporter
    public var eventStream: EventStreamImporter
    public var xcresult: XCResultImporter

    public init(
        junit: JUnitImporter = JUnitImporter(), eventStream: EventStreamImporter = EventStreamImporter(),
        xcresult: XCResultImporter = XCResultImporter()
    ) {
        self.junit = junit
        self.eventStream = eventStream
        self.xcresult = xcresult
    }

    /// Parses the file at `path` in whichever supported format it holds.
    /// - Parameter progress: called now and then with (bytes read, file size) while a large file is read.
    /// - Throws: `ImportError` naming the file, and the line and column when the format has them.
    public func parse(fileAt path: String, progress: (@Sendable (Int64, Int64) -> Void)? = nil) throws(ImportError)
        -> ParsedReport
    {
        let head: Data
        do {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ImportError(file: path, reason: "cannot open the file for reading")
            }
            defer { try? handle.close() }
            head = try handle.read(upToCount: 65536) ?? Data()
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError(file: path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        let format: ReportFormat
        switch Self.detectFormat(head: head) {
        case .success(let detected): format = detected
        case .failure(let reason):
            throw ImportError(file: path, line: reason.line, column: reason.line == nil ? nil : 1, reason: reason.text)
        }
        switch format {
        case .junit: return try junit.parse(fileAt: path, progress: progress)
        case .swiftTestingEventStream: return try eventStream.parse(fileAt: path)
        case .xcresultTests, .xcresultLegacy: return try xcresult.parse(fileAt: path, format: format)
        }
    }

    /// Why a file is not a supported report.
    public struct Rejection: Error, Sendable, Equatable {
        public var text: String
        public var line: Int?
    }

    /// The format of a report from its first bytes (at least the first 64 KiB, or the whole file).
    public static func detectFormat(head: Data) -> Result<ReportFormat, Rejection> {
        var bytes = Substring(decoding: head, as: UTF8.self)
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) { return .success(.junit) }  // UTF-16 XML
        if bytes.first == "\u{FEFF}" { bytes = bytes.dropFirst() }
        let trimmed = bytes.drop { $0.isWhitespace }
        guard let first = trimmed.first else {
            return .failure(Rejection(text: head.isEmpty ? "the file is empty" : "the file holds only whitespace"))
        }
        switch first {
        case "<":
            guard let root = rootElement(in: trimmed) else { return .success(.junit) }
            switch root {
            case "testsuites", "testsuite": return .success(.junit)
            case "plist":
                return .failure(
                    Rejection(
                        text:
                            "unsupported format: a property list (Xcode ≤ 10 TestSummaries?); convert it to JUnit first (fastlane trainer)"
                    ))
            case "testExecutions":
                return .failure(
                    Rejection(
                        text: "unsupported format: SonarQube generic test execution XML (<testExecutions>), not JUnit"))
            default:
                return .failure(
                    Rejection(
                        text: "unsupported format: the XML root is <\(root)>, not JUnit's <testsuites> or <testsuite>"))
            }
        case "{", "[":
            if first == "{", let line = trimmed.split(separator: "\n", maxSplits: 1).first,
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["kind"] != nil, object["version"] != nil
            {
                return .success(.swiftTestingEventStream)
            }
            if trimmed.contains("\"testNodes\"") { return .success(.xcresultTests) }
            if trimmed.contains("\"_type\"") { return .success(.xcresultLegacy) }
            if first == "[", trimmed.contains("\"kind\""), trimmed.contains("\"version\"") {
                return .success(.swiftTestingEventStream)
            }
            if trimmed.contains("\"totalTestCount\"") || trimmed.contains("\"passedTests\"") {
                return .failure(
                    Rejection(
                        text:
                            "unsupported format: an xcresulttool summary; import `xcrun xcresulttool get test-results tests` output instead"
                    ))
            }
            if trimmed.contains("\"testIdentifier\"") && trimmed.contains("\"testRuns\"") {
                return .failure(
                    Rejection(
                        text:
                            "unsupported format: xcresulttool test-details of one test; import `get test-results tests` output instead"
                    ))
            }
            return .failure(
                Rejection(
                    text:
                        "unsupported format: JSON without test nodes (xcresulttool), `_type` (legacy xcresult) or event records (Swift Testing)"
                ))
        default:
            let firstLine = trimmed.prefix { $0 != "\n" }.prefix(60)
            if trimmed.contains("Test Case '") || trimmed.contains("Test case '") || trimmed.contains("Test Suite '") {
                return .failure(
                    Rejection(
                        text:
                            "unsupported format: a test console log; import the JUnit, event-stream or xcresult report instead",
                        line: 1))
            }
            return .failure(
                Rejection(
                    text: "unsupported format: plain text, not XML or JSON (starts with \"\(firstLine)\")", line: 1))
        }
    }

    /// The first element name after the XML declaration, comments and DOCTYPE; `nil` when not in `text`.
    static func rootElement(in text: Substring) -> String? {
        var rest = text
        while let open = rest.firstIndex(of: "<") {
            rest = rest[open...]
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!") {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                rest = rest[rest.index(after: end)...]
            } else {
                let name = rest.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
                return name.isEmpty ? nil : String(name)
            }
        }
        return nil
    }
}
