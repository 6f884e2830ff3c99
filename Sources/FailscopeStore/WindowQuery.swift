import Foundation

extension FailscopeStore {
    /// A project's results in a window of whole UTC days ending today, as `errors(_:)`, `durations(_:)` and
    /// `durationTrend(_:_:)` read them (the API's `project`, `branch`, `days` and `limit` parameters).
    public struct WindowQuery: Sendable, Hashable {
        public var project: String
        public var branch: String?
        /// Window length in whole UTC days ending today (1...365), as the flaky window.
        public var days: Int
        /// 1...200: the length of each list.
        public var limit: Int
        /// "Today" (tests pass a fixed date).
        public var now: Date

        public init(project: String, branch: String? = nil, days: Int = 14, limit: Int = 20, now: Date = Date()) {
            self.project = project
            self.branch = branch
            self.days = days
            self.limit = limit
            self.now = now
        }

        /// Milliseconds: 00:00 UTC of the window's first day.
        /// - Throws: `StoreError.invalid` for `days` or `limit` out of range.
        func since() throws -> Int64 {
            guard (1...365).contains(days) else { throw StoreError.invalid("days must be 1...365") }
            guard (1...200).contains(limit) else { throw StoreError.invalid("limit must be 1...200") }
            let day = FlakySummaries.millisecondsPerDay
            return (Timestamp.milliseconds(now) / day - Int64(days) + 1) * day
        }
    }
}
