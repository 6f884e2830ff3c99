import Foundation

/// The state of a run as the service reports it.
///
/// - `incomplete`: not finished (still running, or its reporter died).
/// - `failed`: finished, and some test's last attempt failed or errored.
/// - `passed`: finished, and no test's last attempt failed or errored.
public enum RunStatus: String, Codable, Sendable, CaseIterable, Hashable {
    case incomplete
    case passed
    case failed
}

/// How many results of a run ended in each status (every attempt counts), how many tests'
/// last attempt failed or errored (`failingTests`), and how many of those were quarantined when that attempt ran
/// (`quarantinedFailingTests`: the failures forgiven, README.md "Quarantine"). In a page group of a run the two test
/// counts are 0.
public struct ResultCounts: Codable, Sendable, Hashable {
    public var total: Int
    public var passed: Int
    public var failed: Int
    public var error: Int
    public var skipped: Int
    public var expectedFailure: Int
    public var failingTests: Int
    public var quarantinedFailingTests: Int

    public init(
        total: Int = 0, passed: Int = 0, failed: Int = 0, error: Int = 0, skipped: Int = 0, expectedFailure: Int = 0,
        failingTests: Int = 0, quarantinedFailingTests: Int = 0
    ) {
        self.total = total
        self.passed = passed
        self.failed = failed
        self.error = error
        self.skipped = skipped
        self.expectedFailure = expectedFailure
        self.failingTests = failingTests
        self.quarantinedFailingTests = quarantinedFailingTests
    }
}

extension ResultCounts {
    /// The counts of `statuses` (one a result; `failingTests` is left 0: it needs attempts).
    public init(counting statuses: some Sequence<TestStatus>) {
        self.init()
        for status in statuses { add(status) }
    }

    /// Counts one more result of `status` (not `failingTests`: it needs attempts).
    public mutating func add(_ status: TestStatus) {
        total += 1
        switch status {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: error += 1
        case .skipped: skipped += 1
        case .expectedFailure: expectedFailure += 1
        }
    }

    /// The summary lines' words: `18 results (15 passed, 2 failed, 0 errors, 1 skipped)`, and
    /// `, 1 failing test quarantined` when some failing tests were quarantined.
    public var summaryText: String {
        "\(total) results (\(passed) passed, \(failed) failed, \(error) errors, \(skipped) skipped)"
            + (quarantinedFailingTests == 0
                ? ""
                : ", \(quarantinedFailingTests) failing test\(quarantinedFailingTests == 1 ? "" : "s") quarantined")
    }
}

/// One run in `GET /api/v1/runs` and at the top of `GET /api/v1/runs/{runId}`: the uploaded `Run`
/// metadata plus its status and result counts.
///
/// `statusWithQuarantine` is the status once the failures of quarantined tests are forgiven (what `failscope test
/// --quarantine obey` exits by): `passed` for a `failed` run whose every failing test was quarantined, else `status`.
public struct RunSummary: Codable, Sendable, Hashable {
    public var run: Run
    public var status: RunStatus
    public var statusWithQuarantine: RunStatus
    public var counts: ResultCounts

    public init(run: Run, status: RunStatus, counts: ResultCounts) {
        self.run = run
        self.status = status
        self.counts = counts
        self.statusWithQuarantine = Self.status(status, forgiving: counts)
    }

    /// The rule of `statusWithQuarantine`.
    public static func status(_ status: RunStatus, forgiving counts: ResultCounts) -> RunStatus {
        status == .failed && counts.failingTests > 0 && counts.quarantinedFailingTests == counts.failingTests
            ? .passed : status
    }
}

/// A page of `GET /api/v1/runs`, newest first. `nextCursor` is opaque; pass it as `?cursor=` to get
/// the next page; `nil` on the last page.
public struct RunList: Codable, Sendable, Hashable {
    public var runs: [RunSummary]
    public var nextCursor: String?

    public init(runs: [RunSummary], nextCursor: String?) {
        self.runs = runs
        self.nextCursor = nextCursor
    }
}
