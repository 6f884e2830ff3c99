import Foundation

/// One flaky test on one branch, with the evidence of `FlakyReport`'s window.
public struct FlakyTest: Codable, Sendable, Hashable {
    public var testId: String
    public var project: String
    public var suite: String
    public var name: String
    public var arguments: String?
    /// The branch the rules were applied on (`""` for results without a branch).
    public var branch: String
    public var reasons: [FlakyReason]
    /// flips / (sampleCount − 1) over the newest results; `nil` with fewer than the minimum results.
    public var flipRate: Double?
    public var flips: Int
    /// Results the flip rate was measured over (at most the policy's N).
    public var sampleCount: Int
    /// Passing and failing results in the window (skipped ones are neither).
    public var passCount: Int
    public var failCount: Int
    /// Commits with both a pass and a fail in the window, newest first, at most `contradictingCommitLimit`.
    public var contradictingCommits: [ContradictingCommit]
    /// How many commits contradict in the window (may exceed the list).
    public var contradictingCommitCount: Int
    public var firstFlakyFailureAt: Date?
    public var lastFlakyFailureAt: Date?
    /// Where its failures in the window happened, most failures first.
    public var pages: [FlakyPageCount]
    /// Call sites where it failed with a failure in the window, newest first.
    public var callSites: [FlakyCallSite]
    /// Its failures in the window by device, most first.
    public var devices: [DeviceCount]
    /// The newest failure (on the asked page when one was asked).
    public var newestFailure: FailureLink?

    /// The most contradicting commits listed: 5 (the dashboard shows 3 and the count). A test flaky for
    /// months contradicts on dozens of commits; listing them all made a page's answer grow with history.
    public static let contradictingCommitLimit = 5

    public init(
        testId: String, project: String, suite: String, name: String, arguments: String?, branch: String,
        reasons: [FlakyReason], flipRate: Double?, flips: Int, sampleCount: Int, passCount: Int, failCount: Int,
        contradictingCommits: [ContradictingCommit], contradictingCommitCount: Int, firstFlakyFailureAt: Date?,
        lastFlakyFailureAt: Date?, pages: [FlakyPageCount], callSites: [FlakyCallSite], devices: [DeviceCount],
        newestFailure: FailureLink?
    ) {
        self.testId = testId
        self.project = project
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.branch = branch
        self.reasons = reasons
        self.flipRate = flipRate
        self.flips = flips
        self.sampleCount = sampleCount
        self.passCount = passCount
        self.failCount = failCount
        self.contradictingCommits = contradictingCommits
        self.contradictingCommitCount = contradictingCommitCount
        self.firstFlakyFailureAt = firstFlakyFailureAt
        self.lastFlakyFailureAt = lastFlakyFailureAt
        self.pages = pages
        self.callSites = callSites
        self.devices = devices
        self.newestFailure = newestFailure
    }
}

/// A commit on which a test both passed and failed.
public struct ContradictingCommit: Codable, Sendable, Hashable {
    public var commit: String
    public var passes: Int
    public var fails: Int
    /// The later of its newest pass and newest fail.
    public var seenAt: Date

    public init(commit: String, passes: Int, fails: Int, seenAt: Date) {
        self.commit = commit
        self.passes = passes
        self.fails = fails
        self.seenAt = seenAt
    }
}

/// A flaky test's failures on one page in the window.
public struct FlakyPageCount: Codable, Sendable, Hashable {
    /// The page, or `"(no page)"` (then `suite` is the test's suite).
    public var page: String
    public var suite: String?
    public var failureCount: Int
    public var lastFailureAt: Date

    public init(page: String, suite: String?, failureCount: Int, lastFailureAt: Date) {
        self.page = page
        self.suite = suite
        self.failureCount = failureCount
        self.lastFailureAt = lastFailureAt
    }
}

/// A call site (test source line calling the page object) where a flaky test failed.
public struct FlakyCallSite: Codable, Sendable, Hashable {
    public var file: String
    public var line: Int
    public var page: String
    /// Failures recorded at this call site since the history began (not only in the window).
    public var totalFailureCount: Int
    public var lastFailureAt: Date

    public init(file: String, line: Int, page: String, totalFailureCount: Int, lastFailureAt: Date) {
        self.file = file
        self.line = line
        self.page = page
        self.totalFailureCount = totalFailureCount
        self.lastFailureAt = lastFailureAt
    }
}

/// A test failing every recent result on its newest commit: a real failure, not flakiness.
public struct BrokenTest: Codable, Sendable, Hashable {
    public var testId: String
    public var project: String
    public var suite: String
    public var name: String
    public var arguments: String?
    public var branch: String
    public var commit: String
    /// Failing results on `commit` in the window (all of its results there).
    public var failCount: Int
    public var newestFailure: FailureLink?

    public init(
        testId: String, project: String, suite: String, name: String, arguments: String?, branch: String,
        commit: String, failCount: Int, newestFailure: FailureLink?
    ) {
        self.testId = testId
        self.project = project
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.branch = branch
        self.commit = commit
        self.failCount = failCount
        self.newestFailure = newestFailure
    }
}
