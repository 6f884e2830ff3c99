import Foundation

/// `GET /api/v1/durations`: the slowest tests of a project and their duration regressions (docs/durations.md).
///
/// Durations are seconds of passing results (`passed`; a failure often stops early, a skip does not run) with a
/// known duration; percentiles are nearest-rank (`Percentile`).
public struct DurationReport: Codable, Sendable, Hashable {
    /// One test's durations in the window.
    public struct TestDurations: Codable, Sendable, Hashable {
        public var test: TestIdentity
        public var results: Int
        public var p50: Double
        public var p95: Double

        public init(test: TestIdentity, results: Int, p50: Double, p95: Double) {
            self.test = test
            self.results = results
            self.p50 = p50
            self.p95 = p95
        }
    }

    /// A test whose p50 over its newest `recentResults` passing results exceeds the p50 of the
    /// `recentResults` before them by at least `regressionRatio` and `regressionSeconds`.
    public struct Regression: Codable, Sendable, Hashable {
        public var test: TestIdentity
        public var previousP50: Double
        public var recentP50: Double

        public init(test: TestIdentity, previousP50: Double, recentP50: Double) {
            self.test = test
            self.previousP50 = previousP50
            self.recentP50 = recentP50
        }
    }

    /// N: the results on each side of a regression check.
    public static let recentResults = 10
    /// A regression is a p50 at least 20 % higher …
    public static let regressionRatio = 1.2
    /// … and at least 0.1 s higher (as `RunComparison`'s duration changes).
    public static let regressionSeconds = 0.1

    /// 00:00 UTC of the window's first day.
    public var since: Date
    /// By p95, slowest first (then test id), at most `limit`.
    public var slowest: [TestDurations]
    /// By the change of p50, largest first (then test id), at most `limit`.
    public var regressions: [Regression]

    public init(since: Date, slowest: [TestDurations], regressions: [Regression]) {
        self.since = since
        self.slowest = slowest
        self.regressions = regressions
    }
}
