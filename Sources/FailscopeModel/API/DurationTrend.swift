import Foundation

/// `GET /api/v1/tests/{testId}/durations`: one test's p50 and p95 per UTC day of the window.
public typealias DurationTrend = SubjectDurationTrend<TestIdentity>

/// `GET /api/v1/durations/actions/trend`: one page action's p50 and p95 per UTC day of the window.
public typealias ActionDurationTrend = SubjectDurationTrend<PageAction>

/// A subject's (test's or page action's) p50 and p95 per UTC day of the window, days without a duration left
/// out, oldest first (docs/durations.md). Seconds, nearest-rank (`Percentile`).
///
/// JSON: `{<subjectKey>, "days": [{"day", <countKey>, "p50", "p95"}]}` with the keys of `DurationSubject`.
public struct SubjectDurationTrend<Subject: DurationSubject>: Codable, Sendable, Hashable {
    public struct Day: Codable, Sendable, Hashable {
        /// 00:00 UTC of the day.
        public var day: Date
        /// How many durations were measured that day (≥ 1).
        public var count: Int
        public var p50: Double
        public var p95: Double

        public init(day: Date, count: Int, p50: Double, p95: Double) {
            self.day = day
            self.count = count
            self.p50 = p50
            self.p95 = p95
        }

        public init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: DurationCodingKey.self)
            day = try keys.decode(Date.self, forKey: .init("day"))
            count = try keys.decode(Int.self, forKey: .init(Subject.countKey))
            p50 = try keys.decode(Double.self, forKey: .init("p50"))
            p95 = try keys.decode(Double.self, forKey: .init("p95"))
        }

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: DurationCodingKey.self)
            try keys.encode(day, forKey: .init("day"))
            try keys.encode(count, forKey: .init(Subject.countKey))
            try keys.encode(p50, forKey: .init("p50"))
            try keys.encode(p95, forKey: .init("p95"))
        }
    }

    public var subject: Subject
    public var days: [Day]

    public init(subject: Subject, days: [Day]) {
        self.subject = subject
        self.days = days
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: DurationCodingKey.self)
        subject = try keys.decode(Subject.self, forKey: .init(Subject.subjectKey))
        days = try keys.decode([Day].self, forKey: .init("days"))
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: DurationCodingKey.self)
        try keys.encode(subject, forKey: .init(Subject.subjectKey))
        try keys.encode(days, forKey: .init("days"))
    }
}

extension SubjectDurationTrend where Subject == TestIdentity {
    public var test: TestIdentity { subject }
}

extension SubjectDurationTrend where Subject == PageAction {
    public var action: PageAction { subject }
}
