import Foundation

/// The run answers in the wire format: a run page (`GET /api/v1/runs/{runId}`, the service's largest answer: a
/// 5,000-result run) and a run comparison (`GET /api/v1/runs/{runId}/compare`, up to every result of both runs
/// when they share no test), which `JSONEncoder` on Linux writes about ten times slower.
extension WireJSONWriter {
    /// `detail` as `WireCoding.encoder().encode(detail)` would write it.
    public static func encode(_ detail: RunDetail) -> Data {
        var json = WireJSONWriter(capacity: 4_096 + detail.summary.counts.total * 320)
        json.write(detail)
        return json.data
    }

    /// `comparison` as `WireCoding.encoder().encode(comparison)` would write it.
    public static func encode(_ comparison: RunComparison) -> Data {
        let lists = [
            comparison.newFailures, comparison.fixed, comparison.stillFailing, comparison.quarantined,
            comparison.flaky, comparison.newTests, comparison.removedTests,
        ]
        var json = WireJSONWriter(
            capacity: 4_096 + (lists.reduce(0) { $0 + $1.count } + comparison.durationChanges.count) * 400)
        json.write(comparison)
        return json.data
    }

    public mutating func write(_ comparison: RunComparison) {
        object { keys in
            if let base = comparison.base { keys.field("base") { $0.write(base) } }
            keys.field("durationChanges") { $0.array(comparison.durationChanges) { $0.write($1) } }
            keys.field("fixed") { $0.array(comparison.fixed) { $0.write($1) } }
            keys.field("flaky") { $0.array(comparison.flaky) { $0.write($1) } }
            keys.field("newFailures") { $0.array(comparison.newFailures) { $0.write($1) } }
            keys.field("newTests") { $0.array(comparison.newTests) { $0.write($1) } }
            keys.field("quarantined") { $0.array(comparison.quarantined) { $0.write($1) } }
            keys.field("removedTests") { $0.array(comparison.removedTests) { $0.write($1) } }
            keys.field("run") { $0.write(comparison.run) }
            keys.field("stillFailing") { $0.array(comparison.stillFailing) { $0.write($1) } }
        }
    }

    public mutating func write(_ change: RunComparison.DurationChange) {
        object { keys in
            keys.number("baseDuration", change.baseDuration)
            keys.number("duration", change.duration)
            keys.field("result") { $0.write(change.result) }
        }
    }
}

extension WireJSONWriter {
    public mutating func write(_ detail: RunDetail) {
        object { keys in
            keys.field("pages") { $0.array(detail.pages) { $0.write($1) } }
            keys.field("summary") { $0.write(detail.summary) }
        }
    }

    public mutating func write(_ page: RunDetail.PageGroup) {
        object { keys in
            keys.field("callSites") { $0.array(page.callSites) { $0.write($1) } }
            keys.field("counts") { $0.write(page.counts) }
            keys.string("page", page.page)
        }
    }

    public mutating func write(_ site: RunDetail.CallSiteGroup) {
        object { keys in
            if let callSite = site.callSite { keys.field("callSite") { $0.write(callSite) } }
            keys.field("results") { $0.array(site.results) { $0.write($1) } }
        }
    }

    public mutating func write(_ summary: RunSummary) {
        object { keys in
            keys.field("counts") { $0.write(summary.counts) }
            keys.field("run") { $0.write(summary.run) }
            keys.string("status", summary.status.rawValue)
            keys.string("statusWithQuarantine", summary.statusWithQuarantine.rawValue)
        }
    }

    public mutating func write(_ counts: ResultCounts) {
        object { keys in
            keys.integer("error", counts.error)
            keys.integer("expectedFailure", counts.expectedFailure)
            keys.integer("failed", counts.failed)
            keys.integer("failingTests", counts.failingTests)
            keys.integer("passed", counts.passed)
            keys.integer("quarantinedFailingTests", counts.quarantinedFailingTests)
            keys.integer("skipped", counts.skipped)
            keys.integer("total", counts.total)
        }
    }

    public mutating func write(_ run: Run) {
        object { keys in
            keys.string("branch", run.branch)
            keys.string("ciBuildURL", run.ciBuildURL)
            keys.string("ciJob", run.ciJob)
            keys.string("ciProvider", run.ciProvider)
            keys.string("commit", run.commit)
            keys.string("device", run.device)
            keys.date("finishedAt", run.finishedAt)
            keys.string("id", run.id)
            keys.string("osVersion", run.osVersion)
            keys.string("project", run.project)
            keys.string("source", run.source.rawValue)
            keys.date("startedAt", run.startedAt)
        }
    }

    public mutating func write(_ result: ResultSummary) {
        object { keys in
            keys.string("arguments", result.arguments)
            keys.integer("attempt", result.attempt)
            if let callSite = result.callSite { keys.field("callSite") { $0.write(callSite) } }
            keys.string("device", result.device)
            keys.number("duration", result.duration)
            keys.integer("id", result.id)
            keys.string("message", result.message)
            keys.string("name", result.name)
            keys.string("page", result.page)
            keys.bool("quarantined", result.quarantined)
            keys.string("runId", result.runId)
            keys.string("screenshot", result.screenshot)
            keys.date("startedAt", result.startedAt)
            keys.string("status", result.status.rawValue)
            keys.string("suite", result.suite)
            keys.string("testId", result.testId)
        }
    }
}
