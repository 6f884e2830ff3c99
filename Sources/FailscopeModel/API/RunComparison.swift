import Foundation

/// What changed in a run against a base run (usually the newest finished run of the base branch):
/// the one definition behind a pull request's summary.
///
/// A test is a test id on a device (`testId`, `device`); its outcome in a run is its last attempt's
/// (`TestStatus.outcome`: failed and error fail, an expected failure passes, a skip is neither). Lists
/// hold each test's last attempt, in
/// the run's order (the base's for `fixed` and `removedTests`):
/// - `newFailures`: failed in the run, not quarantined, and passed, was skipped or did not run in the base;
/// - `fixed`: failed in the base, passed in the run;
/// - `stillFailing`: failed in both, not quarantined in the run;
/// - `quarantined`: failed in the run while quarantined (`ResultSummary.quarantined`): shown apart, forgiven;
/// - `flaky`: passed in the run after a failed attempt (a retry that passed);
/// - `newTests` / `removedTests`: in one run only;
/// - `durationChanges`: tests that passed in both, by the largest change of duration first (at most
///   `durationChangeLimit`, only changes of at least 0.1 s and 20 %).
/// Without a base every failure is new and nothing is fixed, removed or changed.
public struct RunComparison: Codable, Sendable, Hashable {
    /// One test's duration in the base and in the run, in seconds.
    public struct DurationChange: Codable, Sendable, Hashable {
        public var result: ResultSummary
        public var baseDuration: Double
        public var duration: Double
    }

    public var run: RunSummary
    public var base: RunSummary?
    public var newFailures: [ResultSummary]
    public var fixed: [ResultSummary]
    public var stillFailing: [ResultSummary]
    public var quarantined: [ResultSummary]
    public var flaky: [ResultSummary]
    public var newTests: [ResultSummary]
    public var removedTests: [ResultSummary]
    public var durationChanges: [DurationChange]

    public static let durationChangeLimit = 10

    public init(run: RunDetail, base: RunDetail?) {
        let now = Self.outcomes(of: run)
        let before = base.map(Self.outcomes(of:)) ?? Outcomes()
        self.run = run.summary
        self.base = base?.summary
        newFailures = now.order.compactMap { key in
            guard let last = now.last[key], last.status.outcome == .fail, !last.quarantined else { return nil }
            return before.last[key]?.status.outcome == .fail ? nil : last
        }
        stillFailing = now.order.compactMap { key in
            guard let last = now.last[key], last.status.outcome == .fail, !last.quarantined,
                before.last[key]?.status.outcome == .fail
            else { return nil }
            return last
        }
        quarantined = now.order.compactMap { key in
            guard let last = now.last[key], last.status.outcome == .fail, last.quarantined else { return nil }
            return last
        }
        fixed = now.order.compactMap { key in
            guard let last = now.last[key], last.status.outcome == .pass, before.last[key]?.status.outcome == .fail
            else { return nil }
            return last
        }
        flaky = now.order.compactMap { key in
            guard let last = now.last[key], last.status.outcome == .pass, now.failedAttempt.contains(key) else {
                return nil
            }
            return last
        }
        newTests = base == nil ? [] : now.order.filter { before.last[$0] == nil }.compactMap { now.last[$0] }
        removedTests = before.order.filter { now.last[$0] == nil }.compactMap { before.last[$0] }
        durationChanges = now.order.compactMap { key -> DurationChange? in
            guard let last = now.last[key], let previous = before.last[key], last.status.outcome == .pass,
                previous.status.outcome == .pass, let duration = last.duration, let baseDuration = previous.duration,
                abs(duration - baseDuration) >= 0.1, abs(duration - baseDuration) >= 0.2 * baseDuration
            else { return nil }
            return DurationChange(result: last, baseDuration: baseDuration, duration: duration)
        }.sorted { abs($0.duration - $0.baseDuration) > abs($1.duration - $1.baseDuration) }
            .prefix(Self.durationChangeLimit).map { $0 }
    }

    /// The default base of run `runID` among `candidates` (runs of the base branch, newest first, as
    /// `GET /api/v1/runs?branch=` lists them): the newest finished one (status not `incomplete`) other than
    /// the run itself, or the one of `commit` (the merge base, when the caller knows it) if there is one;
    /// among the runs on `device` (the run's own) when any ran on it, since results compare per device and a
    /// base on another device would list every test as new and removed. `nil` when no candidate qualifies.
    /// The one rule, applied by `GET /api/v1/runs/{runId}/compare` (which `failscope summary` and the
    /// dashboard read).
    public static func defaultBase(
        of runID: String, among candidates: [RunSummary], preferringCommit commit: String? = nil,
        device: String? = nil
    ) -> RunSummary? {
        let finished = candidates.filter { $0.run.id != runID && $0.status != .incomplete }
        let sameDevice = finished.filter { $0.run.device == device }
        let pool = device != nil && !sameDevice.isEmpty ? sameDevice : finished
        return (commit.flatMap { commit in pool.first { $0.run.commit == commit } }) ?? pool.first
    }

    /// Each test's last attempt, and which tests had a failed attempt, in first-seen order.
    private struct Outcomes {
        var order: [String] = []
        var last: [String: ResultSummary] = [:]
        var failedAttempt: Set<String> = []
    }

    private static func outcomes(of detail: RunDetail) -> Outcomes {
        var outcomes = Outcomes()
        let results = detail.pages.flatMap(\.callSites).flatMap(\.results).sorted { $0.id < $1.id }
        for result in results {
            let key = result.testId + "\u{1F}" + (result.device ?? "")
            if let previous = outcomes.last[key] {
                if result.attempt >= previous.attempt { outcomes.last[key] = result }
            } else {
                outcomes.order.append(key)
                outcomes.last[key] = result
            }
            if result.status.outcome == .fail { outcomes.failedAttempt.insert(key) }
        }
        return outcomes
    }
}
