import FailscopeModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads Swift Testing's event stream: JSON Lines from `swift test --event-stream-output-path F
/// --event-stream-version 0` (swift-testing `ABI.Record`, `Documentation/ABI/JSON.md`), or the same records in
/// one JSON array.
///
/// `test` records declare suites and functions (`id`, `name`, `displayName`, `isParameterized`,
/// `_testCases`); `event` records report `runStarted`/`runEnded`, `testStarted`/`testEnded`,
/// `testCaseStarted`/`testCaseEnded` (with `_testCase.displayName`, the argument text), `testSkipped` and
/// `issueRecorded` (with `sourceLocation`, `isKnown`, `_severity`/`isFailure`). Records may arrive in any
/// order: results are decided at the end. A test passes unless it has a failing issue (an issue that is
/// not known and not a warning) — never from a message's symbol. Each parameterized case is its own result
/// with `arguments` set to the case's display name. A line that is not JSON is skipped with a warning.
public struct EventStreamImporter: Sendable {
    public init() {}

    /// Parses the file at `path`, line by line.
    /// - Throws: `ImportError` when the file cannot be read or holds no event-stream record at all.
    public func parse(fileAt path: String) throws(ImportError) -> ParsedReport {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, reason: "cannot open the file for reading")
        }
        defer { try? handle.close() }
        var builder = EventStreamBuilder()
        var pending = Data()
        var lineNumber = 0
        var firstByte: UInt8?
        var arrayText = Data()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 16) ?? Data() } catch {
                throw ImportError(file: path, reason: "cannot read the file: \(error.localizedDescription)")
            }
            if firstByte == nil { firstByte = chunk.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) } }
            if firstByte == UInt8(ascii: "[") {
                arrayText.append(chunk)
                if chunk.isEmpty { break }
                continue
            }
            if chunk.isEmpty {
                if !pending.isEmpty {
                    lineNumber += 1
                    builder.add(line: pending, number: lineNumber)
                }
                break
            }
            pending.append(chunk)
            // Line ends found with memchr; each line handed on as one slice.
            let ends: [Int] = pending.withUnsafeBytes { raw in
                var ends: [Int] = []
                guard let base = raw.baseAddress else { return ends }
                var offset = 0
                while offset < raw.count, let hit = memchr(base + offset, 0x0A, raw.count - offset) {
                    let end = base.distance(to: UnsafeRawPointer(hit))
                    ends.append(end)
                    offset = end + 1
                }
                return ends
            }
            var lineStart = 0
            for end in ends {
                lineNumber += 1
                builder.add(
                    line: pending[(pending.startIndex + lineStart)..<(pending.startIndex + end)], number: lineNumber)
                lineStart = end + 1
            }
            // The unfinished last line, copied once per chunk.
            pending = Data(pending[(pending.startIndex + lineStart)...])
        }
        if firstByte == UInt8(ascii: "[") {
            guard let array = try? JSONSerialization.jsonObject(with: arrayText) as? [Any] else {
                throw ImportError(
                    file: path, line: 1, column: 1, reason: "malformed JSON: the array of event records does not parse")
            }
            for (index, record) in array.enumerated() { builder.add(record: record, number: index + 1) }
        }
        guard builder.records > 0 else {
            throw ImportError(
                file: path, line: builder.firstBadLine ?? 1, column: 1,
                reason: "no Swift Testing event-stream record could be read (JSON Lines with \"kind\" and \"version\")")
        }
        return builder.report()
    }

    /// Parses records held in memory (one JSON object per line).
    public func parse(data: Data) -> ParsedReport {
        var builder = EventStreamBuilder()
        for (index, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            builder.add(line: Data(line), number: index + 1)
        }
        return builder.report()
    }
}

/// Accumulates records in any order; `report()` decides every result.
struct EventStreamBuilder {
    struct Declared {
        var name: String
        var isSuite: Bool
        var isParameterized: Bool
    }

    /// One test function, or one case of a parameterized one.
    struct Execution {
        var testID: String
        var arguments: String?
        var started: Double?
        var ended: Double?
        var skipped: String??
        var issues: [Failure] = []
        var knownIssues = 0
        var order: Int
    }

    private(set) var records = 0
    private(set) var firstBadLine: Int?
    private var badLines = 0
    private var declared: [String: Declared] = [:]
    private var executions: [String: Execution] = [:]
    private var runStarted: Double?
    private var runEnded: Double?
    private var versions = Set<Int>()
    private var sequence = 0

    mutating func add(line: Data, number: Int) {
        let bytes = line
        guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }) else { return }
        guard let object = try? JSONSerialization.jsonObject(with: bytes) else {
            badLines += 1
            if firstBadLine == nil { firstBadLine = number }
            return
        }
        add(record: object, number: number)
    }

    mutating func add(record: Any, number: Int) {
        guard let record = record as? [String: Any], let kind = record["kind"] as? String,
            let payload = record["payload"] as? [String: Any]
        else {
            badLines += 1
            if firstBadLine == nil { firstBadLine = number }
            return
        }
        records += 1
        if let version = record["version"] as? Int { versions.insert(version) }
        switch kind {
        case "test": declare(payload)
        case "event": event(payload)
        default: break
        }
    }

    private mutating func declare(_ payload: [String: Any]) {
        guard let id = payload["id"] as? String else { return }
        declared[id] = Declared(
            name: payload["name"] as? String ?? Self.split(id).name,
            isSuite: payload["kind"] as? String == "suite",
            isParameterized: payload["isParameterized"] as? Bool ?? false)
    }

    private mutating func execution(_ testID: String, _ arguments: String?) -> String {
        let key = testID + "\u{1F}" + (arguments ?? "")
        if executions[key] == nil {
            sequence += 1
            executions[key] = Execution(testID: testID, arguments: arguments, order: sequence)
        }
        return key
    }

    private mutating func event(_ payload: [String: Any]) {
        let kind = payload["kind"] as? String ?? ""
        let instant = (payload["instant"] as? [String: Any])?["since1970"] as? Double
        switch kind {
        case "runStarted":
            runStarted = instant
            return
        case "runEnded":
            runEnded = instant
            return
        default: break
        }
        guard let testID = payload["testID"] as? String else { return }
        let testCase = payload["_testCase"] as? [String: Any]
        let arguments = testCase?["displayName"] as? String
        let messages = (payload["messages"] as? [[String: Any]]) ?? []
        switch kind {
        case "testStarted", "testCaseStarted":
            let key = execution(testID, kind == "testCaseStarted" ? arguments : nil)
            executions[key]!.started = min(executions[key]!.started ?? .infinity, instant ?? .infinity)
            if executions[key]!.started == .infinity { executions[key]!.started = nil }
        case "testEnded", "testCaseEnded":
            let key = execution(testID, kind == "testCaseEnded" ? arguments : nil)
            executions[key]!.ended = max(executions[key]!.ended ?? -.infinity, instant ?? -.infinity)
            if executions[key]!.ended == -.infinity { executions[key]!.ended = nil }
        case "testSkipped":
            let key = execution(testID, arguments)
            let reason =
                (payload["comments"] as? [String])?.first
                ?? messages.first.flatMap { $0["text"] as? String }
            executions[key]!.skipped = .some(reason)
        case "issueRecorded":
            let key = execution(testID, arguments)
            let issue = payload["issue"] as? [String: Any] ?? [:]
            let isKnown = issue["isKnown"] as? Bool ?? false
            let severity = issue["_severity"] as? String ?? issue["severity"] as? String
            let isFailure = issue["isFailure"] as? Bool ?? (severity != "warning")
            if isKnown {
                executions[key]!.knownIssues += 1
                return
            }
            guard isFailure else { return }
            var location: SourceLocation?
            if let source = issue["sourceLocation"] as? [String: Any], let line = source["line"] as? Int {
                let file =
                    source["_filePath"] as? String ?? source["filePath"] as? String ?? source["fileID"] as? String
                location = file.map { SourceLocation(file: FailureText.decodePath($0), line: line) }
            }
            let text = messages.compactMap { $0["text"] as? String }.joined(separator: "\n")
            executions[key]!.issues.append(Failure(message: text, location: location))
        default:
            break
        }
    }

    /// `Module.Suite/Inner/func()/File.swift:5:3` → suite `Suite.Inner` (without the module, as the reporter
    /// names it), name `func()`; a free function `Module.func()/…` → suite `Module`, as the reporter names it.
    static func split(_ id: String) -> (suite: String, name: String) {
        var parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = parts.last, parts.count > 1, last.split(separator: ":").count >= 2,
            last.contains(".swift:") || last.split(separator: ":").dropFirst().allSatisfy({ Int($0) != nil })
        {
            parts.removeLast()
        }
        guard parts.count > 1 else {
            let only = parts.first ?? id
            // A free function: its module, then the function (whose parameters may hold dots: split before them).
            let head = only.prefix { $0 != "(" }
            guard let dot = head.firstIndex(of: ".") else { return ("", only) }
            return (String(only[..<dot]), String(only[only.index(after: dot)...]))
        }
        let name = parts.removeLast()
        parts[0] = ReportIdentity.suite(parts[0], hasModulePrefix: true)
        return (parts.joined(separator: "."), name)
    }

    func report() -> ParsedReport {
        var results: [TestResult] = []
        var warnings: [String] = []
        // A parameterized function with cases is reported by its cases; a suite never is a result.
        let withCases = Set(executions.values.filter { $0.arguments != nil }.map(\.testID))
        for execution in executions.values.sorted(by: { $0.order < $1.order }) {
            if declared[execution.testID]?.isSuite == true { continue }
            if execution.arguments == nil, withCases.contains(execution.testID), execution.issues.isEmpty,
                execution.skipped == nil
            {
                continue
            }
            if declared[execution.testID] == nil, execution.issues.isEmpty, execution.skipped == nil,
                !execution.testID.contains("/")
            {
                continue  // a suite that was never declared: "Module.Suite" without a function part
            }
            let (suite, parsedName) = Self.split(execution.testID)
            let name = declared[execution.testID]?.name ?? parsedName
            let status: TestStatus
            var skipReason: String?
            if !execution.issues.isEmpty {
                status = .failed
            } else if let skipped = execution.skipped {
                status = .skipped
                skipReason = skipped
            } else if execution.knownIssues > 0 {
                status = .expectedFailure
            } else {
                status = .passed
            }
            var duration: Double?
            if let started = execution.started, let ended = execution.ended, ended >= started {
                duration = ended - started
            }
            results.append(
                TestResult(
                    suite: suite.isEmpty ? "(no suite)" : suite, name: name,
                    arguments: execution.arguments.map { ReportIdentity.arguments($0, function: name) },
                    status: status, skipReason: skipReason,
                    startedAt: execution.started.map { Date(timeIntervalSince1970: $0) },
                    duration: duration, failures: execution.issues))
        }
        let declaredFunctions = declared.values.filter { !$0.isSuite }.count
        if results.isEmpty {
            warnings.append(
                "empty report: 0 tests (suspicious: a run that lost its results, not a green run)"
                    + (declaredFunctions > 0
                        ? "; \(declaredFunctions) test\(declaredFunctions == 1 ? " is" : "s are") declared but the stream has no events for them"
                        : ""))
        }
        if badLines > 0, let firstBadLine {
            warnings.append(
                "skipped \(badLines) line\(badLines == 1 ? "" : "s") that are not JSON records (first: line \(firstBadLine))"
            )
        }
        if let unknown = versions.first(where: { $0 != 0 && $0 != 1 }) {
            warnings.append("event stream version \(unknown) is newer than this importer knows (0); read as version 0")
        }
        var duration: Double?
        if let runStarted, let runEnded, runEnded >= runStarted { duration = runEnded - runStarted }
        return ParsedReport(
            format: .swiftTestingEventStream, results: AttemptNumbering.number(results), warnings: warnings,
            startedAt: runStarted.map { Date(timeIntervalSince1970: $0) }, duration: duration)
    }
}
