import FailscopeModel
import Foundation

/// Reads `xcrun xcresulttool` JSON: the Xcode 16+ `get test-results tests` tree, and the legacy
/// (`get --legacy --format json`, Xcode ≤ 15) `ActionTestPlanRunSummaries` / `ActionTestSummary` objects.
///
/// Xcode 16+ shape (schema: `xcresulttool help get test-results tests`): `testNodes` nest `Test Plan` →
/// test bundle → `Test Suite`… → `Test Case`, whose children are `Repetition` nodes (attempts in order;
/// the first may be named "First Run" or "Retry 1"), `Arguments` nodes (parameterized cases, each its own
/// test), `Device` nodes (the same test on several devices, each its own test) and `Failure Message` nodes
/// (`File.swift:12: message`). A duration is `durationInSeconds` when present, else the `duration` string in
/// the machine's locale (`0,26s`, `1m 3,01s`). A `Failure Message` under a skipped test is its skip reason.
/// The whole JSON is read at once: these files are small compared with the bundles they describe.
public struct XCResultImporter: Sendable {
    public init() {}

    /// Parses the file at `path` as `format` (`.xcresultTests` or `.xcresultLegacy`).
    /// - Throws: `ImportError` for malformed JSON or a shape this importer does not read.
    public func parse(fileAt path: String, format: ReportFormat) throws(ImportError) -> ParsedReport {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ImportError(file: path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        return try parse(data: data, name: path, format: format)
    }

    /// Parses JSON held in memory; `name` is used in errors.
    public func parse(data: Data, name: String = "<data>", format: ReportFormat) throws(ImportError) -> ParsedReport {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            let (line, column) = Self.position(of: error, in: data)
            throw ImportError(file: name, line: line, column: column, reason: "malformed JSON: \(Self.describe(error))")
        }
        guard let root = object as? [String: Any] else {
            throw ImportError(file: name, line: 1, column: 1, reason: "unsupported format: the JSON is not an object")
        }
        if format == .xcresultLegacy { return try LegacyReader(name: name).read(root) }
        guard let nodes = root["testNodes"] as? [[String: Any]] else {
            throw ImportError(file: name, reason: "unsupported format: no \"testNodes\" array")
        }
        var reader = TestNodeReader()
        for node in nodes { reader.visit(node, suites: [], device: nil) }
        var report = ParsedReport(format: .xcresultTests, results: AttemptNumbering.number(reader.results))
        let devices = (root["devices"] as? [[String: Any]]) ?? []
        if devices.count == 1 {
            report.device = devices[0]["deviceName"] as? String ?? devices[0]["modelName"] as? String
            if let os = devices[0]["osVersion"] as? String {
                let platform = (devices[0]["platform"] as? String)?.replacingOccurrences(of: " Simulator", with: "")
                report.osVersion = platform.map { "\($0) \(os)" } ?? os
            }
        }
        if reader.results.isEmpty {
            report.warnings.append("empty report: 0 tests (suspicious: a run that lost its results, not a green run)")
        }
        if reader.unreadableDurations > 0 {
            report.warnings.append(
                "\(reader.unreadableDurations) duration\(reader.unreadableDurations == 1 ? " was" : "s were") unreadable; imported as unknown"
            )
        }
        return report
    }

    static func describe(_ error: any Error) -> String {
        let info = (error as NSError).userInfo
        return (info[NSDebugDescriptionErrorKey] as? String) ?? (error as NSError).localizedDescription
    }

    /// Line and column of a JSONSerialization error ("… around line 3, column 7", "around character 27").
    static func position(of error: any Error, in data: Data) -> (Int?, Int?) {
        let text = describe(error)
        if let range = text.range(of: "line "), let line = Int(text[range.upperBound...].prefix(while: \.isNumber)) {
            var column: Int?
            if let columnRange = text.range(of: "column ") {
                column = Int(text[columnRange.upperBound...].prefix(while: \.isNumber))
            }
            return (line, column)
        }
        var index = (error as NSError).userInfo["NSJSONSerializationErrorIndex"] as? Int
        if index == nil, let range = text.range(of: "character ") {
            index = Int(text[range.upperBound...].prefix(while: \.isNumber))  // "Invalid value around character 27."
        }
        if let index, index <= data.count {
            let prefix = data.prefix(index)
            let line = prefix.filter { $0 == 0x0A }.count + 1
            let column = index - (prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return (line, column)
        }
        return (nil, nil)
    }
}

/// Walks the Xcode 16+ node tree.
struct TestNodeReader {
    private(set) var results: [TestResult] = []
    private(set) var unreadableDurations = 0

    mutating func visit(_ node: [String: Any], suites: [String], device: String?) {
        let type = node["nodeType"] as? String ?? ""
        let name = node["name"] as? String ?? ""
        let children = (node["children"] as? [[String: Any]]) ?? []
        switch type {
        case "Test Case":
            testCase(node, suites: suites, device: device)
        case "Test Suite":
            for child in children { visit(child, suites: suites + [name], device: device) }
        case "Device":
            for child in children { visit(child, suites: suites, device: name) }
        default:  // Test Plan, bundles, Test Plan Configuration…
            for child in children { visit(child, suites: suites, device: device) }
        }
    }

    /// The suite and name come from `nodeIdentifier` (`Outer/Inner/select(color:)`: the function, as the
    /// reporter names it, not the display name in `name`), else from the enclosing suites and `name`.
    private mutating func testCase(_ node: [String: Any], suites: [String], device: String?) {
        var function = node["name"] as? String ?? "(unnamed test)"
        var suite = suites.joined(separator: ".")
        if let identifier = node["nodeIdentifier"] as? String, identifier.contains("/") {
            let parts = identifier.split(separator: "/")
            suite = parts.dropLast().joined(separator: ".")
            if let last = parts.last { function = String(last) }
        }
        let name = ReportIdentity.name(function)
        if suite.isEmpty { suite = "(no suite)" }
        let children = (node["children"] as? [[String: Any]]) ?? []
        let devices = children.filter { $0["nodeType"] as? String == "Device" }
        if !devices.isEmpty {
            for deviceNode in devices {
                outcome(deviceNode, suite: suite, name: name, arguments: nil, device: deviceNode["name"] as? String)
            }
            return
        }
        let cases = children.filter { $0["nodeType"] as? String == "Arguments" }
        if !cases.isEmpty {
            for argumentNode in cases {
                outcome(
                    argumentNode, suite: suite, name: name,
                    arguments: (argumentNode["name"] as? String).map { ReportIdentity.arguments($0, function: name) },
                    device: device)
            }
            return
        }
        outcome(node, suite: suite, name: name, arguments: nil, device: device)
    }

    /// One test (a case, a case on a device, or a plain test): its repetitions, or itself as one attempt.
    private mutating func outcome(
        _ node: [String: Any], suite: String, name: String, arguments: String?, device: String?
    ) {
        let children = (node["children"] as? [[String: Any]]) ?? []
        let innerDevices = children.filter { $0["nodeType"] as? String == "Device" }
        if !innerDevices.isEmpty {
            for deviceNode in innerDevices {
                outcome(
                    deviceNode, suite: suite, name: name, arguments: arguments, device: deviceNode["name"] as? String)
            }
            return
        }
        let repetitions = children.filter { $0["nodeType"] as? String == "Repetition" }
        let attempts = repetitions.isEmpty ? [node] : repetitions
        for attempt in attempts {
            var status = Self.status(attempt["result"] as? String)
            let messages = Self.failureMessages(attempt)
            if status == nil { status = messages.isEmpty ? .passed : .failed }
            var failures: [Failure] = []
            var skipReason: String?
            if status == .skipped {
                skipReason = messages.first
            } else if status == .failed || status == .error || status == .expectedFailure {
                failures = messages.map { message in
                    let located = FailureText.locate(message: message, text: nil)
                    return Failure(message: located.message, location: located.location)
                }
            }
            results.append(
                TestResult(
                    suite: suite, name: name, arguments: arguments, device: device, status: status!,
                    skipReason: skipReason, duration: duration(of: attempt), failures: failures))
        }
    }

    private mutating func duration(of node: [String: Any]) -> Double? {
        if let seconds = node["durationInSeconds"] as? Double { return seconds }
        if let seconds = node["durationInSeconds"] as? NSNumber { return seconds.doubleValue }
        guard let text = node["duration"] as? String else { return nil }
        let seconds = ReportDuration.seconds(text)
        if seconds == nil { unreadableDurations += 1 }
        return seconds
    }

    static func status(_ result: String?) -> TestStatus? {
        switch result?.lowercased() {
        case "passed": .passed
        case "failed": .failed
        case "skipped": .skipped
        case "expected failure": .expectedFailure
        default: nil
        }
    }

    /// `Failure Message` texts directly under `node` (not under its repetitions or cases).
    static func failureMessages(_ node: [String: Any]) -> [String] {
        ((node["children"] as? [[String: Any]]) ?? []).compactMap {
            $0["nodeType"] as? String == "Failure Message" ? $0["name"] as? String : nil
        }
    }
}

/// Reads the legacy (`_type`/`_value`) object graph.
struct LegacyReader {
    let name: String

    static func value(_ object: Any?) -> String? {
        (object as? [String: Any])?["_value"] as? String
    }

    static func values(_ object: Any?) -> [[String: Any]] {
        ((object as? [String: Any])?["_values"] as? [[String: Any]]) ?? []
    }

    static func typeName(_ object: [String: Any]) -> String? {
        (object["_type"] as? [String: Any])?["_name"] as? String
    }

    func read(_ root: [String: Any]) throws(ImportError) -> ParsedReport {
        var results: [TestResult] = []
        switch Self.typeName(root) {
        case "ActionTestPlanRunSummaries":
            for summary in Self.values(root["summaries"]) {
                for testable in Self.values(summary["testableSummaries"]) {
                    for group in Self.values(testable["tests"]) { collect(group, into: &results) }
                }
            }
        case "ActionTestSummary", "ActionTestMetadata":
            collect(root, into: &results)
        case "ActionsInvocationRecord":
            throw ImportError(
                file: name,
                reason:
                    "unsupported format: an ActionsInvocationRecord holds only references to the tests; export them with `xcrun xcresulttool get --legacy --format json --path R.xcresult --id <testsRef id>` and import that"
            )
        case let other:
            throw ImportError(
                file: name, reason: "unsupported format: legacy xcresult object \(other ?? "without _type")")
        }
        var report = ParsedReport(format: .xcresultLegacy, results: AttemptNumbering.number(results))
        if results.isEmpty {
            report.warnings.append("empty report: 0 tests (suspicious: a run that lost its results, not a green run)")
        }
        if results.contains(where: { ($0.status == .failed || $0.status == .error) && $0.failures.isEmpty }) {
            report.warnings.append("failure messages are in the referenced ActionTestSummary objects, not in this file")
        }
        return report
    }

    private func collect(_ node: [String: Any], into results: inout [TestResult]) {
        switch Self.typeName(node) {
        case "ActionTestSummaryGroup":
            for child in Self.values(node["subtests"]) { collect(child, into: &results) }
        case "ActionTestMetadata", "ActionTestSummary":
            let identifier = Self.value(node["identifier"]) ?? ""
            let testName = ReportIdentity.name(
                Self.value(node["name"]) ?? identifier.split(separator: "/").last.map(String.init) ?? "(unnamed test)")
            let parts = identifier.split(separator: "/")
            let suite = parts.count > 1 ? parts.dropLast().joined(separator: ".") : "(no suite)"
            let status: TestStatus
            switch Self.value(node["testStatus"]) {
            case "Success": status = .passed
            case "Failure": status = .failed
            case "Skipped": status = .skipped
            case "Expected Failure": status = .expectedFailure
            default: status = .error
            }
            var failures: [Failure] = []
            for failure in Self.values(node["failureSummaries"]) {
                let message = Self.value(failure["message"]) ?? ""
                var location: SourceLocation?
                if let file = Self.value(failure["fileName"]),
                    let line = Self.value(failure["lineNumber"]).flatMap({ Int($0) })
                {
                    location = SourceLocation(file: file, line: line)
                }
                failures.append(
                    Failure(
                        message: message, location: location,
                        isError: Self.value(failure["issueType"]) == "Thrown Error"))
            }
            results.append(
                TestResult(
                    suite: suite, name: testName, status: status,
                    duration: Self.value(node["duration"]).flatMap { Double($0) }, failures: failures))
        default:
            break
        }
    }
}
