import FailscopeModel

/// The flaky rules of docs/flaky.md applied to one test on one branch (and device scope), from its
/// newest results in the window and whether a commit contradicts there. Pure: no database.
public struct FlakyClassifier: Sendable {
    /// One pass/fail result.
    public struct Outcome: Sendable, Hashable {
        public var failed: Bool
        /// `""` when the result has no commit.
        public var commit: String
        public var resultID: Int64
        public var ranAt: Int64

        public init(failed: Bool, commit: String, resultID: Int64 = 0, ranAt: Int64 = 0) {
            self.failed = failed
            self.commit = commit
            self.resultID = resultID
            self.ranAt = ranAt
        }
    }

    /// What the rules decided.
    public enum Verdict: Sendable, Hashable {
        /// Flaky, with the reasons that applied.
        case flaky([FlakyReason])
        /// Every one of the (≥ brokenMinimum) window results on the newest commit failed.
        case broken(commit: String, failCount: Int)
        /// The newest `recoveryPasses` results all passed.
        case recovered
        /// None of the above.
        case stable
    }

    /// The verdict and the flip-rate measurement.
    public struct Classification: Sendable, Hashable {
        public var verdict: Verdict
        /// flips / (sampleCount − 1), `nil` when sampleCount < minimumResults.
        public var flipRate: Double?
        public var flips: Int
        public var sampleCount: Int

        public var isFlaky: Bool {
            if case .flaky = verdict { return true }
            return false
        }
    }

    public var policy: FlakyPolicy

    public init(policy: FlakyPolicy = .standard) {
        self.policy = policy
    }

    /// Classifies `newestFirst` (the window's pass/fail results, newest first, at least the
    /// policy's N and K of them when there are that many) given whether some commit has both a pass
    /// and a fail inside the window.
    ///
    /// Order of the rules: broken, then recovery, then contradiction or flip rate.
    public func classify(newestFirst: [Outcome], hasContradiction: Bool) -> Classification {
        let sample = newestFirst.prefix(policy.recentResults)
        var flips = 0
        for (newer, older) in zip(sample, sample.dropFirst()) where newer.failed != older.failed { flips += 1 }
        let flipRate: Double? =
            sample.count >= max(policy.minimumResults, 2) ? Double(flips) / Double(sample.count - 1) : nil
        var result = Classification(verdict: .stable, flipRate: flipRate, flips: flips, sampleCount: sample.count)
        if let newest = newestFirst.first, !newest.commit.isEmpty {
            let onNewest = newestFirst.filter { $0.commit == newest.commit }
            if onNewest.count >= policy.brokenMinimum && onNewest.allSatisfy(\.failed) {
                result.verdict = .broken(commit: newest.commit, failCount: onNewest.count)
                return result
            }
        }
        if newestFirst.count >= policy.recoveryPasses && newestFirst.prefix(policy.recoveryPasses).allSatisfy({ !$0.failed }) {
            result.verdict = .recovered
            return result
        }
        var reasons: [FlakyReason] = []
        if hasContradiction { reasons.append(.contradiction) }
        if let flipRate, flipRate >= policy.flipRateThreshold { reasons.append(.flipRate) }
        if !reasons.isEmpty { result.verdict = .flaky(reasons) }
        return result
    }

    /// Checks the policy's ranges.
    ///
    /// - Throws: `StoreError.invalid` naming the first value out of range.
    public static func validate(_ policy: FlakyPolicy) throws(StoreError) {
        let capacity = FlakySummaries.recentCapacity
        guard (2...capacity).contains(policy.recentResults) else {
            throw .invalid("recentResults must be 2...\(capacity)")
        }
        guard policy.flipRateThreshold.isFinite, (0...1).contains(policy.flipRateThreshold) else {
            throw .invalid("flipRateThreshold must be 0...1")
        }
        guard (2...capacity).contains(policy.minimumResults) else {
            throw .invalid("minimumResults must be 2...\(capacity)")
        }
        guard (1...capacity).contains(policy.recoveryPasses) else {
            throw .invalid("recoveryPasses must be 1...\(capacity)")
        }
        guard (1...capacity).contains(policy.brokenMinimum) else {
            throw .invalid("brokenMinimum must be 1...\(capacity)")
        }
    }
}
