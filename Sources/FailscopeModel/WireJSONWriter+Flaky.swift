import Foundation

/// The flaky answers in the wire format (`GET /api/v1/flaky`, `GET /api/v1/pages`): a page's flaky report
/// at 10M results is about 34 kB of JSON, which `JSONEncoder` took twice as long to write as the store took
/// to compute.
extension WireJSONWriter {
    /// `report` as `WireCoding.encoder().encode(report)` would write it.
    public static func encode(_ report: FlakyReport) -> Data {
        var json = WireJSONWriter(capacity: 1_024 + report.flaky.count * 2_048 + report.broken.count * 512)
        json.write(report)
        return json.data
    }

    /// `list` as `WireCoding.encoder().encode(list)` would write it.
    public static func encode(_ list: FlakyPageList) -> Data {
        var json = WireJSONWriter(capacity: 64 + list.pages.count * 320)
        json.write(list)
        return json.data
    }

    public mutating func write(_ report: FlakyReport) {
        object { keys in
            keys.string("branch", report.branch)
            keys.field("broken") { $0.array(report.broken) { $0.write($1) } }
            keys.integer("days", report.days)
            keys.string("device", report.device)
            keys.field("flaky") { $0.array(report.flaky) { $0.write($1) } }
            keys.string("page", report.page)
            keys.field("policy") { $0.write(report.policy) }
            keys.string("project", report.project)
            keys.date("since", report.since)
            keys.string("suite", report.suite)
        }
    }

    public mutating func write(_ policy: FlakyPolicy) {
        object { keys in
            keys.integer("brokenMinimum", policy.brokenMinimum)
            keys.number("flipRateThreshold", policy.flipRateThreshold)
            keys.integer("minimumResults", policy.minimumResults)
            keys.integer("recentResults", policy.recentResults)
            keys.integer("recoveryPasses", policy.recoveryPasses)
        }
    }

    public mutating func write(_ test: FlakyTest) {
        object { keys in
            keys.string("arguments", test.arguments)
            keys.string("branch", test.branch)
            keys.field("callSites") { $0.array(test.callSites) { $0.write($1) } }
            keys.integer("contradictingCommitCount", test.contradictingCommitCount)
            keys.field("contradictingCommits") { $0.array(test.contradictingCommits) { $0.write($1) } }
            keys.field("devices") { $0.array(test.devices) { $0.write($1) } }
            keys.integer("failCount", test.failCount)
            keys.date("firstFlakyFailureAt", test.firstFlakyFailureAt)
            keys.number("flipRate", test.flipRate)
            keys.integer("flips", test.flips)
            keys.date("lastFlakyFailureAt", test.lastFlakyFailureAt)
            keys.string("name", test.name)
            if let newest = test.newestFailure { keys.field("newestFailure") { $0.write(newest) } }
            keys.field("pages") { $0.array(test.pages) { $0.write($1) } }
            keys.integer("passCount", test.passCount)
            keys.string("project", test.project)
            keys.field("reasons") { $0.array(test.reasons) { $0.string($1.rawValue) } }
            keys.integer("sampleCount", test.sampleCount)
            keys.string("suite", test.suite)
            keys.string("testId", test.testId)
        }
    }

    public mutating func write(_ test: BrokenTest) {
        object { keys in
            keys.string("arguments", test.arguments)
            keys.string("branch", test.branch)
            keys.string("commit", test.commit)
            keys.integer("failCount", test.failCount)
            keys.string("name", test.name)
            if let newest = test.newestFailure { keys.field("newestFailure") { $0.write(newest) } }
            keys.string("project", test.project)
            keys.string("suite", test.suite)
            keys.string("testId", test.testId)
        }
    }

    public mutating func write(_ commit: ContradictingCommit) {
        object { keys in
            keys.string("commit", commit.commit)
            keys.integer("fails", commit.fails)
            keys.integer("passes", commit.passes)
            keys.date("seenAt", commit.seenAt)
        }
    }

    public mutating func write(_ page: FlakyPageCount) {
        object { keys in
            keys.integer("failureCount", page.failureCount)
            keys.date("lastFailureAt", page.lastFailureAt)
            keys.string("page", page.page)
            keys.string("suite", page.suite)
        }
    }

    public mutating func write(_ site: FlakyCallSite) {
        object { keys in
            keys.string("file", site.file)
            keys.date("lastFailureAt", site.lastFailureAt)
            keys.integer("line", site.line)
            keys.string("page", site.page)
            keys.integer("totalFailureCount", site.totalFailureCount)
        }
    }

    public mutating func write(_ count: DeviceCount) {
        object { keys in
            keys.string("device", count.device)
            keys.integer("failureCount", count.failureCount)
        }
    }

    public mutating func write(_ link: FailureLink) {
        object { keys in
            keys.date("ranAt", link.ranAt)
            keys.integer("resultId", link.resultId)
            keys.string("runId", link.runId)
            keys.string("screenshot", link.screenshot)
        }
    }

    public mutating func write(_ list: FlakyPageList) {
        object { keys in
            keys.field("pages") { $0.array(list.pages) { $0.write($1) } }
            keys.date("since", list.since)
        }
    }

    public mutating func write(_ page: FlakyPageSummary) {
        object { keys in
            keys.field("devices") { $0.array(page.devices) { $0.write($1) } }
            keys.integer("failingTestCount", page.failingTestCount)
            keys.integer("failureCount", page.failureCount)
            keys.integer("flakyFailureCount", page.flakyFailureCount)
            keys.integer("flakyTestCount", page.flakyTestCount)
            keys.date("lastFailureAt", page.lastFailureAt)
            keys.date("lastFlakyFailureAt", page.lastFlakyFailureAt)
            keys.string("page", page.page)
            keys.integer("resultCount", page.resultCount)
            keys.string("suite", page.suite)
        }
    }
}
