/// `GET /api/v1/runs/{runId}/errors`: a run's failures read as problems (docs/errors.md): each failed or
/// errored result with its signature and verdict, the run's new errors, and the failures grouped by
/// identical signature and by identical screenshot, so 40 tests failing on one broken screen read as one.
public struct RunErrors: Codable, Sendable, Hashable {
    /// One failed or errored result of the run (every attempt), in the run's order.
    public struct FailureEntry: Codable, Sendable, Hashable {
        public var result: ResultSummary
        /// `nil` for a failure without a recorded message.
        public var signatureId: String?
        public var verdict: FailureVerdict

        public init(result: ResultSummary, signatureId: String?, verdict: FailureVerdict) {
            self.result = result
            self.signatureId = signatureId
            self.verdict = verdict
        }
    }

    /// Results sharing a signature id or a screenshot's SHA-256 (`key`), ids in the run's order.
    public struct Group: Codable, Sendable, Hashable {
        public var key: String
        public var resultIds: [Int]

        public init(key: String, resultIds: [Int]) {
            self.key = key
            self.resultIds = resultIds
        }
    }

    public var runId: String
    /// The run the regression verdicts compare with; `nil` when the base branch has no finished run.
    public var baseRunId: String?
    /// Every signature the failures have, by first appearance.
    public var signatures: [FailureSignature]
    /// The ids of the signatures that no earlier run on the run's branch failed with, by first appearance.
    public var newErrors: [String]
    public var failures: [FailureEntry]
    /// Groups of at least two results, largest first (then by first appearance).
    public var bySignature: [Group]
    public var byScreenshot: [Group]

    public init(
        runId: String, baseRunId: String?, signatures: [FailureSignature], newErrors: [String],
        failures: [FailureEntry], bySignature: [Group], byScreenshot: [Group]
    ) {
        self.runId = runId
        self.baseRunId = baseRunId
        self.signatures = signatures
        self.newErrors = newErrors
        self.failures = failures
        self.bySignature = bySignature
        self.byScreenshot = byScreenshot
    }

    /// Groups of at least two of `items` by `key` (items without one are left out), largest first, then by
    /// first appearance.
    public static func groups<Item>(_ items: [Item], key: (Item) -> String?, id: (Item) -> Int) -> [Group] {
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for item in items {
            guard let value = key(item) else { continue }
            if members[value] == nil { order.append(value) }
            members[value, default: []].append(id(item))
        }
        return order.enumerated().filter { members[$0.element]!.count >= 2 }
            .sorted { (members[$0.element]!.count, -$0.offset) > (members[$1.element]!.count, -$1.offset) }
            .map { Group(key: $0.element, resultIds: members[$0.element]!) }
    }
}
