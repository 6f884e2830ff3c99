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

    /// The comparison of two run details (`GET /api/v1/runs/{runId}`): their results as `Attempt`s, the lists'
    /// entries taken from the details.
    public init(run: RunDetail, base: RunDetail?) {
        let results = [run.results, base?.results ?? []].joined()
        let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(
            run: run.summary, attempts: run.results.map(Attempt.init), base: base?.summary,
            baseAttempts: base?.results.map(Attempt.init) ?? [], summaries: { _ in byID })
    }

    /// The comparison of `run` against `base` (`nil`: none) from each run's results as `Attempt`s, in any order
    /// (`baseAttempts` empty without a base). The rules read only the attempts; `summaries` is then asked once,
    /// with the ids of the attempts the lists hold (ascending), for their `ResultSummary` by id; an id it does not
    /// answer is left out of the lists.
    public init(
        run: RunSummary, attempts: [Attempt], base: RunSummary?, baseAttempts: [Attempt],
        summaries: ([Int]) throws -> [Int: ResultSummary]
    ) rethrows {
        let now = Outcomes(attempts)
        let before = Outcomes(baseAttempts)
        let newFailures = now.order.compactMap { key -> Attempt? in
            guard let last = now.last[key], last.status.outcome == .fail, !last.quarantined else { return nil }
            return before.last[key]?.status.outcome == .fail ? nil : last
        }
        let stillFailing = now.order.compactMap { key -> Attempt? in
            guard let last = now.last[key], last.status.outcome == .fail, !last.quarantined,
                before.last[key]?.status.outcome == .fail
            else { return nil }
            return last
        }
        let quarantined = now.order.compactMap { key -> Attempt? in
            guard let last = now.last[key], last.status.outcome == .fail, last.quarantined else { return nil }
            return last
        }
        let fixed = now.order.compactMap { key -> Attempt? in
            guard let last = now.last[key], last.status.outcome == .pass, before.last[key]?.status.outcome == .fail
            else { return nil }
            return last
        }
        let flaky = now.order.compactMap { key -> Attempt? in
            guard let last = now.last[key], last.status.outcome == .pass, now.failedAttempt.contains(key) else {
                return nil
            }
            return last
        }
        let newTests = base == nil ? [] : now.order.filter { before.last[$0] == nil }.compactMap { now.last[$0] }
        let removedTests = before.order.filter { now.last[$0] == nil }.compactMap { before.last[$0] }
        let durationChanges = now.order.compactMap { key -> (last: Attempt, baseDuration: Double, duration: Double)? in
            guard let last = now.last[key], let previous = before.last[key], last.status.outcome == .pass,
                previous.status.outcome == .pass, let duration = last.duration, let baseDuration = previous.duration,
                abs(duration - baseDuration) >= 0.1, abs(duration - baseDuration) >= 0.2 * baseDuration
            else { return nil }
            return (last, baseDuration, duration)
        }.sorted { abs($0.duration - $0.baseDuration) > abs($1.duration - $1.baseDuration) }
            .prefix(Self.durationChangeLimit)
        let lists = [newFailures, fixed, stillFailing, quarantined, flaky, newTests, removedTests]
        let listed = Set(lists.joined().map(\.id)).union(durationChanges.map(\.last.id))
        let found = try summaries(listed.sorted())
        let resolve = { (attempts: [Attempt]) in attempts.compactMap { found[$0.id] } }
        self.run = run
        self.base = base
        self.newFailures = resolve(newFailures)
        self.fixed = resolve(fixed)
        self.stillFailing = resolve(stillFailing)
        self.quarantined = resolve(quarantined)
        self.flaky = resolve(flaky)
        self.newTests = resolve(newTests)
        self.removedTests = resolve(removedTests)
        self.durationChanges = durationChanges.compactMap { change in
            found[change.last.id].map {
                DurationChange(result: $0, baseDuration: change.baseDuration, duration: change.duration)
            }
        }
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

    /// One result as the rules read it: the `ResultSummary` fields they judge by.
    public struct Attempt: Sendable, Hashable {
        public var id: Int
        public var testId: String
        public var device: String?
        public var attempt: Int
        public var status: TestStatus
        /// Seconds; `nil` when unknown.
        public var duration: Double?
        /// `ResultSummary.quarantined`; the rules read it only for a failed or errored attempt.
        public var quarantined: Bool

        public init(
            id: Int, testId: String, device: String?, attempt: Int, status: TestStatus, duration: Double?,
            quarantined: Bool
        ) {
            self.id = id
            self.testId = testId
            self.device = device
            self.attempt = attempt
            self.status = status
            self.duration = duration
            self.quarantined = quarantined
        }

        public init(_ result: ResultSummary) {
            self.init(
                id: result.id, testId: result.testId, device: result.device, attempt: result.attempt,
                status: result.status, duration: result.duration, quarantined: result.quarantined)
        }
    }

    /// Each test's last attempt (the highest; the latest result among equal ones), and which tests had a failed
    /// attempt, in first-seen order (by result id).
    private struct Outcomes {
        var order: [String] = []
        var last: [String: Attempt] = [:]
        var failedAttempt: Set<String> = []

        init(_ attempts: [Attempt]) {
            for result in attempts.sorted(by: { $0.id < $1.id }) {
                let key = result.testId + "\u{1F}" + (result.device ?? "")
                if let previous = last[key] {
                    if result.attempt >= previous.attempt { last[key] = result }
                } else {
                    order.append(key)
                    last[key] = result
                }
                if result.status.outcome == .fail { failedAttempt.insert(key) }
            }
        }
    }
}

extension RunDetail {
    /// Every result of the run, in no particular order.
    fileprivate var results: [ResultSummary] { pages.flatMap(\.callSites).flatMap(\.results) }
}
