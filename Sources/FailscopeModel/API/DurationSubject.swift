/// What durations are measured for (docs/durations.md): a test (`TestIdentity`) or a page action (`PageAction`).
///
/// `DurationReport`/`ActionDurationReport` and `DurationTrend`/`ActionDurationTrend` are one generic shape
/// (`SubjectDurationReport`, `SubjectDurationTrend`); the subject decides two JSON keys.
public protocol DurationSubject: Codable, Sendable, Hashable {
    /// The JSON key of the subject in a report entry and a trend: `test` or `action`.
    static var subjectKey: String { get }
    /// The JSON key of the number of durations measured: `results` (a test's passing results) or `steps`
    /// (an action's timed trail steps).
    static var countKey: String { get }
}

extension TestIdentity: DurationSubject {
    public static var subjectKey: String { "test" }
    public static var countKey: String { "results" }
}

/// A JSON key chosen at run time (the `DurationSubject` keys).
struct DurationCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
