import Foundation

/// `GET /api/v1/durations`: the slowest tests of a project and their duration regressions (docs/durations.md).
public typealias DurationReport = SubjectDurationReport<TestIdentity>

/// `GET /api/v1/durations/actions`: the slowest page actions of a project and their duration regressions.
public typealias ActionDurationReport = SubjectDurationReport<PageAction>

/// The slowest subjects (tests or page actions) of a project in a window and their duration regressions
/// (docs/durations.md). Seconds; percentiles are nearest-rank (`Percentile`).
///
/// A test's durations are its passing results' (`passed`: a failure often stops early, a skip does not run);
/// an action's are its timed trail steps' (`TrailStep.duration`), the step a failure cut short left out.
///
/// JSON: `{"since", "slowest": [{<subjectKey>, <countKey>, "p50", "p95"}], "regressions": [{<subjectKey>,
/// "previousP50", "recentP50"}]}` with the keys of `DurationSubject` (`test`/`results`, `action`/`steps`).
public struct SubjectDurationReport<Subject: DurationSubject>: Codable, Sendable, Hashable {
    /// One subject's durations in the window.
    public struct Durations: Codable, Sendable, Hashable {
        public var subject: Subject
        /// How many durations were measured (≥ 1).
        public var count: Int
        public var p50: Double
        public var p95: Double

        public init(subject: Subject, count: Int, p50: Double, p95: Double) {
            self.subject = subject
            self.count = count
            self.p50 = p50
            self.p95 = p95
        }

        public init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: DurationCodingKey.self)
            subject = try keys.decode(Subject.self, forKey: .init(Subject.subjectKey))
            count = try keys.decode(Int.self, forKey: .init(Subject.countKey))
            p50 = try keys.decode(Double.self, forKey: .init("p50"))
            p95 = try keys.decode(Double.self, forKey: .init("p95"))
        }

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: DurationCodingKey.self)
            try keys.encode(subject, forKey: .init(Subject.subjectKey))
            try keys.encode(count, forKey: .init(Subject.countKey))
            try keys.encode(p50, forKey: .init("p50"))
            try keys.encode(p95, forKey: .init("p95"))
        }
    }

    /// A subject whose p50 over its newest `recentCount` durations exceeds the p50 of the `recentCount` before
    /// them by at least `regressionRatio` and `regressionSeconds`.
    public struct Regression: Codable, Sendable, Hashable {
        public var subject: Subject
        public var previousP50: Double
        public var recentP50: Double

        public init(subject: Subject, previousP50: Double, recentP50: Double) {
            self.subject = subject
            self.previousP50 = previousP50
            self.recentP50 = recentP50
        }

        public init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: DurationCodingKey.self)
            subject = try keys.decode(Subject.self, forKey: .init(Subject.subjectKey))
            previousP50 = try keys.decode(Double.self, forKey: .init("previousP50"))
            recentP50 = try keys.decode(Double.self, forKey: .init("recentP50"))
        }

        public func encode(to encoder: any Encoder) throws {
            var keys = encoder.container(keyedBy: DurationCodingKey.self)
            try keys.encode(subject, forKey: .init(Subject.subjectKey))
            try keys.encode(previousP50, forKey: .init("previousP50"))
            try keys.encode(recentP50, forKey: .init("recentP50"))
        }
    }

    /// 00:00 UTC of the window's first day.
    public var since: Date
    /// By p95, slowest first (then the subject), at most `limit`.
    public var slowest: [Durations]
    /// By the change of p50, largest first (then the subject), at most `limit`.
    public var regressions: [Regression]

    public init(since: Date, slowest: [Durations], regressions: [Regression]) {
        self.since = since
        self.slowest = slowest
        self.regressions = regressions
    }
}

/// The regression rule, one for tests and actions (docs/durations.md).
extension SubjectDurationReport {
    /// N: the durations on each side of a regression check.
    public static var recentCount: Int { 10 }
    /// A regression is a p50 at least 20 % higher …
    public static var regressionRatio: Double { 1.2 }
    /// … and at least 0.1 s higher (as `RunComparison`'s duration changes).
    public static var regressionSeconds: Double { 0.1 }
}

extension SubjectDurationReport.Durations where Subject == TestIdentity {
    public var test: TestIdentity { subject }
}

extension SubjectDurationReport.Regression where Subject == TestIdentity {
    public var test: TestIdentity { subject }
}

extension SubjectDurationReport.Durations where Subject == PageAction {
    public var action: PageAction { subject }
}

extension SubjectDurationReport.Regression where Subject == PageAction {
    public var action: PageAction { subject }
}
