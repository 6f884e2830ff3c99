import Foundation

/// `GET /api/v1/flaky`: the flaky tests of a window (optionally of one page, project, branch or
/// device) with their evidence, and the broken tests apart (docs/flaky.md has the rules).
///
/// The window is `days` whole UTC days ending today: results that ran at or after `since`.
public struct FlakyReport: Codable, Sendable, Hashable {
    public var since: Date
    public var days: Int
    public var project: String?
    public var branch: String?
    public var device: String?
    /// The page asked for (`"(no page)"` for results without one), `nil` for every page.
    public var page: String?
    /// With `page == "(no page)"`: the suite asked for, if any.
    public var suite: String?
    public var policy: FlakyPolicy
    /// Most flaky failures first (then suite, name).
    public var flaky: [FlakyTest]
    /// Tests failing every recent result on their newest commit: never listed as flaky.
    public var broken: [BrokenTest]

    public init(
        since: Date, days: Int, project: String?, branch: String?, device: String?, page: String?, suite: String?,
        policy: FlakyPolicy, flaky: [FlakyTest], broken: [BrokenTest]
    ) {
        self.since = since
        self.days = days
        self.project = project
        self.branch = branch
        self.device = device
        self.page = page
        self.suite = suite
        self.policy = policy
        self.flaky = flaky
        self.broken = broken
    }

    /// The page name reported for results without a recorded page (grouped by their suite).
    public static let noPage = "(no page)"

    /// Why a flaky filter of `page` and `suite` is refused, or `nil` when it is not: `suite` narrows only
    /// the results without a page (`page` is `noPage`), whose tests are grouped by suite. The one
    /// statement of that rule, for the API (`GET /api/v1/flaky`) and `failscope flaky --data`.
    public static func filterProblem(page: String?, suite: String?) -> String? {
        guard suite != nil, page != noPage else { return nil }
        return "suite applies only with page \"\(noPage)\""
    }
}

/// Why a test is flaky.
public enum FlakyReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// A pass and a fail on the same commit inside the window (retries or separate runs).
    case contradiction
    /// Flip rate over the newest results at or above the threshold.
    case flipRate = "flip_rate"
}

/// The newest failing result of a test and its screenshot link.
public struct FailureLink: Codable, Sendable, Hashable {
    public var resultId: Int
    public var runId: String
    public var ranAt: Date
    /// `/artifacts/{sha256}.png` of its first screenshot, `nil` when it has none.
    public var screenshot: String?

    public init(resultId: Int, runId: String, ranAt: Date, screenshot: String?) {
        self.resultId = resultId
        self.runId = runId
        self.ranAt = ranAt
        self.screenshot = screenshot
    }
}

/// A count per device (results without a device count under `""`).
public struct DeviceCount: Codable, Sendable, Hashable {
    public var device: String
    public var failureCount: Int

    public init(device: String, failureCount: Int) {
        self.device = device
        self.failureCount = failureCount
    }
}
