import FailscopeModel
import Foundation

/// The formats `ReportImporter` reads, told apart by content (never by file extension).
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
    /// JUnit/xUnit XML: root `<testsuites>` or `<testsuite>`.
    case junit
    /// Swift Testing's event stream, JSON Lines (`swift test --event-stream-output-path`, version 0).
    case swiftTestingEventStream = "swift-testing-event-stream"
    /// `xcrun xcresulttool get test-results tests` JSON (Xcode 16+): `{"testNodes": [...]}`.
    case xcresultTests = "xcresult-tests"
    /// `xcrun xcresulttool get --legacy --format json` (Xcode ≤ 15 object graph with `_type`/`_value`).
    case xcresultLegacy = "xcresult-legacy"

    /// The run source recorded with an imported run.
    public var runSource: Run.Source {
        switch self {
        case .junit: .junit
        case .swiftTestingEventStream: .eventStream
        case .xcresultTests, .xcresultLegacy: .xcresult
        }
    }
}

/// One report file, parsed: every attempt of every test plus what the file says about its run.
///
/// `results` holds one `TestResult` per attempt; retries of the same identity (suite, name, arguments,
/// device) are numbered `attempt` 1, 2, … in the order they ran, so the highest attempt decides the test.
public struct ParsedReport: Sendable {
    public var format: ReportFormat
    /// Every attempt; `tests` follows it.
    public var results: [TestResult] {
        didSet { tests = Self.group(results) }
    }
    /// Tests after folding retries: one entry per identity, in first-seen order.
    public private(set) var tests: [ImportedTest] = []
    /// Things a person should know: recovered XML, a header that disagrees with the elements, an empty report.
    public var warnings: [String]
    /// The run's start and length in seconds, when the report gives them.
    public var startedAt: Date?
    public var duration: Double?
    /// The device the whole report ran on, when the report names one (xcresult `devices`).
    public var device: String?
    public var osVersion: String?
    /// Malformed input was repaired (control characters, unescaped `&`, `<` or quotes).
    public var recovered: Bool

    public init(
        format: ReportFormat, results: [TestResult], warnings: [String] = [], startedAt: Date? = nil,
        duration: Double? = nil, device: String? = nil, osVersion: String? = nil, recovered: Bool = false
    ) {
        self.format = format
        self.results = results
        self.warnings = warnings
        self.startedAt = startedAt
        self.duration = duration
        self.device = device
        self.osVersion = osVersion
        self.recovered = recovered
        self.tests = Self.group(results)
    }

    /// A report with no test at all is suspicious (a parallel run whose results were lost), never green.
    public var isSuspicious: Bool { results.isEmpty }

    static func group(_ results: [TestResult]) -> [ImportedTest] {
        var index: [ImportedTest.Identity: Int] = [:]
        index.reserveCapacity(results.count)
        var tests: [ImportedTest] = []
        for result in results {
            let key = ImportedTest.Identity(result)
            if let position = index[key] {
                tests[position].attempts.append(result)
            } else {
                index[key] = tests.count
                tests.append(ImportedTest(attempts: [result]))
            }
        }
        for position in tests.indices where tests[position].attempts.count > 1 {
            tests[position].attempts.sort { $0.attempt < $1.attempt }
        }
        return tests
    }

    /// Counts per logical test (retries folded).
    public var summary: ImportSummary {
        var summary = ImportSummary()
        for test in tests {
            summary.tests += 1
            summary.attempts += test.attempts.count
            switch test.final.status {
            case .passed, .expectedFailure: summary.passed += 1
            case .failed, .error: summary.failures += 1
            case .skipped: summary.skipped += 1
            }
            if test.isFlaky { summary.flaky += 1 }
        }
        summary.warnings =
            warnings.count + (isSuspicious && !warnings.contains(where: { $0.hasPrefix("empty report") }) ? 1 : 0)
        return summary
    }
}

/// One logical test of a report: its attempts, oldest first; the last one decides.
public struct ImportedTest: Sendable {
    public var attempts: [TestResult]

    public var final: TestResult { attempts[attempts.count - 1] }

    /// Passed in the end after failing on an earlier attempt.
    public var isFlaky: Bool {
        final.status.outcome == .pass && attempts.dropLast().contains { $0.status.outcome == .fail }
    }

    /// Suite, name, arguments and device: what makes two results the same test.
    public struct Identity: Hashable, Sendable {
        public var suite: String
        public var name: String
        public var arguments: String?
        public var device: String?

        public init(_ result: TestResult) {
            suite = result.suite
            name = result.name
            arguments = result.arguments
            device = result.device
        }
    }
}

/// What a dry run prints per file: tests (retries folded), failures (failed or error), skipped, flaky, warnings.
public struct ImportSummary: Sendable, Hashable {
    public var tests = 0
    public var passed = 0
    public var failures = 0
    public var skipped = 0
    public var flaky = 0
    /// Results uploaded: one per attempt.
    public var attempts = 0
    public var warnings = 0

    public init() {}
}

/// A report that cannot be imported: which file, where in it (1-based line and column when known), and why.
public struct ImportError: Error, Sendable, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var reason: String

    public init(file: String, line: Int? = nil, column: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `path:12:5: reason`, as compilers print it.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let line, line > 0, let column { text += ":\(column)" }
        return text + ": " + reason
    }
}

/// Assigns attempt numbers: results of the same identity become attempts 1, 2, … in input order.
enum AttemptNumbering {
    static func number(_ results: [TestResult]) -> [TestResult] {
        var numbered = results
        number(&numbered)
        return numbered
    }

    /// Numbers in place (no second copy of a large report's results).
    static func number(_ results: inout [TestResult]) {
        var seen: [ImportedTest.Identity: Int] = [:]
        seen.reserveCapacity(results.count)
        for index in results.indices {
            let key = ImportedTest.Identity(results[index])
            let attempt = (seen[key] ?? 0) + 1
            seen[key] = attempt
            results[index].attempt = attempt
        }
    }
}

/// Text kept up to a byte limit; what is dropped is counted and noted at the end.
struct BoundedText {
    let limit: Int
    private(set) var text = ""
    private(set) var keptBytes = 0
    private(set) var droppedBytes = 0
    private(set) var touched = false

    init(limit: Int) { self.limit = limit }

    mutating func append(_ piece: String) {
        touched = true
        let count = piece.utf8.count
        if keptBytes + count <= limit {
            text += piece
            keptBytes += count
        } else {
            let room = limit - keptBytes
            if room > 0 {
                var kept = String(decoding: Array(piece.utf8.prefix(room)), as: UTF8.self)
                // A character cut in half decodes as U+FFFD: drop it.
                if kept.hasSuffix("\u{FFFD}"), !piece.hasPrefix(kept) { kept.removeLast() }
                text += kept
                keptBytes += kept.utf8.count
                droppedBytes += count - kept.utf8.count
            } else {
                droppedBytes += count
            }
        }
    }

    mutating func append(_ data: Data) {
        if keptBytes >= limit {
            touched = true
            droppedBytes += data.count
        } else {
            append(String(decoding: data, as: UTF8.self))
        }
    }

    /// Counts bytes dropped before they reached this buffer (cut by `XMLRepairReader`).
    mutating func noteDropped(_ count: Int64) {
        guard count > 0 else { return }
        touched = true
        droppedBytes += Int(count)
    }

    /// The kept text, with `… [N more bytes not stored]` when some was dropped.
    var value: String {
        droppedBytes > 0 ? text + "\n… [\(droppedBytes) more bytes not stored]" : text
    }
}
