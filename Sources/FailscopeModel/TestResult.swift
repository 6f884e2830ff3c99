import Foundation

/// One attempt of one test in one run: the unit the reporter and the importers upload.
///
/// A test is identified by `(project, suite, name, arguments)` (docs/architecture.md, "Words"); `device`
/// overrides the run's device when one report holds several (the same test on two devices is two
/// tests' results in the analysis, never two attempts). `attempt` counts retries from 1.
/// Times: `startedAt` ISO 8601 UTC; `duration` in seconds, `nil` when unknown (never 0 for unknown).
public struct TestResult: Codable, Sendable, Hashable {
    public var suite: String
    public var name: String
    /// The argument text of a parameterized test case; `nil` for a plain test.
    public var arguments: String?
    /// The device or configuration this result ran on when it differs from the run's.
    public var device: String?
    public var attempt: Int
    public var status: TestStatus
    /// Why the test was skipped, for `status == .skipped`.
    public var skipReason: String?
    public var startedAt: Date?
    public var duration: Double?
    public var failures: [Failure]
    /// Page objects entered and their actions, in order (the page trail).
    public var trail: [TrailStep]
    /// Screenshot and element tree taken at the first failure; empty for passing tests.
    public var artifacts: [ArtifactRef]
    /// Captured standard output and error, already truncated by the producer.
    public var systemOut: String?
    public var systemErr: String?

    public init(
        suite: String,
        name: String,
        arguments: String? = nil,
        device: String? = nil,
        attempt: Int = 1,
        status: TestStatus,
        skipReason: String? = nil,
        startedAt: Date? = nil,
        duration: Double? = nil,
        failures: [Failure] = [],
        trail: [TrailStep] = [],
        artifacts: [ArtifactRef] = [],
        systemOut: String? = nil,
        systemErr: String? = nil
    ) {
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.device = device
        self.attempt = attempt
        self.status = status
        self.skipReason = skipReason
        self.startedAt = startedAt
        self.duration = duration
        self.failures = failures
        self.trail = trail
        self.artifacts = artifacts
        self.systemOut = systemOut
        self.systemErr = systemErr
    }

    /// The pages this result visited, in first-visit order, without repeats.
    public var pagesVisited: [String] {
        var seen = Set<String>()
        return trail.compactMap { seen.insert($0.page).inserted ? $0.page : nil }
    }

    /// The idempotency key of this result within its run: the same key uploaded twice is stored once.
    /// Shape: `suite \u{1F} name \u{1F} arguments \u{1F} device \u{1F} attempt`.
    public var resultKey: String { [resultKeyTestPart, device ?? "", String(attempt)].joined(separator: "\u{1F}") }

    /// The fields of ``resultKey`` that name the test: `suite \u{1F} name \u{1F} arguments`. The key of every
    /// attempt of the test, on every device, starts with it and U+001F.
    public var resultKeyTestPart: String { [suite, name, arguments ?? ""].joined(separator: "\u{1F}") }
}
