import Foundation

/// `GET /api/v1/tests/{testId}/durations`: one test's p50 and p95 per UTC day of the window, days without a
/// passing result with a duration left out (docs/durations.md). Seconds, nearest-rank (`Percentile`).
public struct DurationTrend: Codable, Sendable, Hashable {
    public struct Day: Codable, Sendable, Hashable {
        /// 00:00 UTC of the day.
        public var day: Date
        public var results: Int
        public var p50: Double
        public var p95: Double

        public init(day: Date, results: Int, p50: Double, p95: Double) {
            self.day = day
            self.results = results
            self.p50 = p50
            self.p95 = p95
        }
    }

    public var test: TestIdentity
    public var days: [Day]

    public init(test: TestIdentity, days: [Day]) {
        self.test = test
        self.days = days
    }
}
