import Foundation

/// The thresholds of the flaky rules (docs/flaky.md); the defaults are the documented ones.
public struct FlakyPolicy: Codable, Sendable, Hashable {
    /// N: the flip rate is measured over a test's newest N pass/fail results on a branch (2...64).
    public var recentResults: Int
    /// Flaky when flips / (n − 1) is at least this (0...1).
    public var flipRateThreshold: Double
    /// The flip rate counts only with at least this many results in the window (2...64).
    public var minimumResults: Int
    /// K: a test whose newest K results all passed is no longer flaky (1...64).
    public var recoveryPasses: Int
    /// Broken needs at least this many results on the newest commit, all failing (1...64).
    public var brokenMinimum: Int

    public init(
        recentResults: Int = 30, flipRateThreshold: Double = 0.1, minimumResults: Int = 10, recoveryPasses: Int = 20,
        brokenMinimum: Int = 2
    ) {
        self.recentResults = recentResults
        self.flipRateThreshold = flipRateThreshold
        self.minimumResults = minimumResults
        self.recoveryPasses = recoveryPasses
        self.brokenMinimum = brokenMinimum
    }

    /// The documented defaults: N = 30, threshold 0.1, at least 10 results, recovery after 20 passes,
    /// broken with at least 2 failing results on the newest commit.
    public static let standard = FlakyPolicy()
}
