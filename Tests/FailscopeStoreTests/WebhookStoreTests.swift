import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// The webhook outbox in the store: which events a finished run makes under docs/flaky.md's rules, per-test order of
/// claims and exclusive leases, on both engines.
final class WebhookStoreTests: StoreTestCase {
    private var store: FailscopeStore!
    private let now = Date()

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    /// Stores run `index` on `commit` (one result a test: `outcomes[name]` passed or failed), finishes it, and
    /// evaluates it as the worker does; returns the drafts queued.
    private func finishRun(
        _ index: Int, commit: String, _ outcomes: [String: Bool], file: StaticString = #filePath, line: UInt = #line
    ) throws -> [FailscopeStore.WebhookEventDraft] {
        let startedAt = now.addingTimeInterval(Double(index - 100) * 60)
        var run = sampleRun(id: "run-\(index)", startedAt: startedAt)
        run.commit = commit
        try store.putRun(run)
        let results = outcomes.sorted { $0.key < $1.key }.map { name, passed in
            TestResult(suite: "CheckoutTests", name: name, status: passed ? .passed : .failed, startedAt: startedAt)
        }
        try store.addResults(ResultBatch(results: results), toRun: run.id)
        try store.finishRun(run.id, RunFinish(finishedAt: startedAt.addingTimeInterval(30)))
        try store.scheduleWebhookCheck(runID: run.id, dueAt: now)
        let claims = try store.claimWebhookChecks(
            owner: "worker", now: now, leaseUntil: now.addingTimeInterval(60), limit: 10)
        XCTAssertEqual(claims.map(\.runID), [run.id], file: file, line: line)
        return try claims.flatMap { claim in
            try store.evaluateWebhookCheck(runID: claim.runID, requestID: claim.requestID, owner: "worker", now: now) {
                $0.type.rawValue + " " + $0.id
            }
        }
    }

    /// A test that passes on eight commits, fails on the ninth and passes on the tenth has 2 flips in 10 results
    /// (0.22 ≥ 0.1 with n ≥ 10): flaky only at the tenth run. Two failures on one newest commit make it broken; a pass on
    /// a new commit makes it flaky again; 20 passes in a row (recovery) fix it. Each change is announced once, with its
    /// previous state; a steadily passing test never is.
    func testAFlakyTestsChangesAcrossRunsAreAnnouncedOnceEach() throws {
        _ = try store.createWebhook(WebhookCreate(url: "http://127.0.0.1:9/hook", secret: "0123456789abcdef"))
        var changes: [(run: Int, type: WebhookEventType, previous: WebhookTestState, reasons: [FlakyReason])] = []
        func record(_ index: Int, _ drafts: [FailscopeStore.WebhookEventDraft]) {
            XCTAssertEqual(drafts.first?.type, .runFinished, "run \(index) is announced first")
            XCTAssertEqual(drafts.filter { $0.type == .runFinished }.count, 1)
            for draft in drafts {
                guard let test = draft.test else { continue }
                XCTAssertEqual(test.test.name, "testPay", "only the changing test is announced")
                XCTAssertEqual(test.branch, "main")
                changes.append((index, draft.type, test.previousState, test.reasons))
            }
        }
        for index in 1...10 {
            record(index, try finishRun(index, commit: "c\(index)", ["testPay": index != 9, "testBrowse": true]))
        }
        for index in 11...12 {
            record(index, try finishRun(index, commit: "c11", ["testPay": false, "testBrowse": true]))
        }
        for index in 13...32 {
            record(index, try finishRun(index, commit: "c\(index)", ["testPay": true, "testBrowse": true]))
        }
        XCTAssertEqual(changes.map(\.run), [10, 12, 13, 32])
        XCTAssertEqual(changes.map(\.type), [.testFlaky, .testBroken, .testFlaky, .testFixed])
        XCTAssertEqual(changes.map(\.previous), [.stable, .flaky, .broken, .flaky])
        XCTAssertEqual(changes.first?.reasons, [.flipRate])
        let states = try store.read { db in
            try db.query("SELECT test_id, state FROM webhook_test_states ORDER BY 2") { $0.string(1) }
        }
        XCTAssertEqual(states, ["stable", "stable"], "both tests' states are recorded")
    }

    /// A broken test that fails once on a new commit is not broken there yet by the rules, but it did not pass:
    /// no `test.fixed` goes out, and when the new commit's second failure makes it broken again nothing is
    /// announced twice.
    func testARunInWhichABrokenTestFailsDoesNotFixIt() throws {
        _ = try store.createWebhook(WebhookCreate(url: "http://127.0.0.1:9/hook", secret: "0123456789abcdef"))
        var announced: [(run: Int, type: WebhookEventType)] = []
        for (index, commit) in [(1, "b1"), (2, "b1"), (3, "b2"), (4, "b2")] {
            for draft in try finishRun(index, commit: commit, ["testCart": false]) where draft.test != nil {
                announced.append((index, draft.type))
            }
        }
        XCTAssertEqual(announced.map(\.run), [2])
        XCTAssertEqual(announced.map(\.type), [.testBroken])
        let states = try store.read { db in try db.query("SELECT state FROM webhook_test_states") { $0.string(0) } }
        XCTAssertEqual(states, ["broken"])
    }

    /// A webhook gets a test's events one at a time: the newer event waits while the older is pending, and a claim
    /// holds its rows until its lease ends, whoever else asks.
    func testClaimsKeepEachTestsOrderAndAreExclusiveUntilTheLeaseEnds() throws {
        let (webhook, created) = try store.createWebhook(
            WebhookCreate(url: "http://127.0.0.1:9/hook", secret: "0123456789abcdef"))
        XCTAssertTrue(created)
        XCTAssertEqual(
            try store.createWebhook(WebhookCreate(url: "http://127.0.0.1:9/hook", secret: "fedcba9876543210")).webhook
                .id,
            webhook.id, "the same URL again is the same webhook")
        _ = try finishRun(1, commit: "c1", ["testPay": true])
        _ = try finishRun(2, commit: "c1", ["testPay": false])  // a contradiction on c1: flaky
        _ = try finishRun(3, commit: "c3", ["testPay": false])
        let broken = try finishRun(4, commit: "c3", ["testPay": false])  // two failures on the newest commit: broken
        XCTAssertEqual(broken.compactMap(\.test).map(\.state), [.broken])

        let lease = now.addingTimeInterval(30)
        let first = try store.claimWebhookDeliveries(owner: "a", now: now, leaseUntil: lease, limit: 100)
        XCTAssertEqual(first.filter { $0.event == .runFinished }.count, 4, "runs do not wait for each other")
        XCTAssertEqual(first.filter { $0.event != .runFinished }.map(\.event), [.testFlaky], "the broken event waits")
        XCTAssertEqual(Set(first.map(\.attempts)), [1])
        XCTAssertEqual(Set(first.map(\.webhookID)), [webhook.id])
        XCTAssertEqual(
            try store.claimWebhookDeliveries(owner: "b", now: now, leaseUntil: lease, limit: 100).count, 0,
            "leased rows are not claimed twice")

        let flaky = try XCTUnwrap(first.first { $0.event == .testFlaky })
        try store.recordWebhookAttempt(
            id: flaky.id, owner: "a", outcome: .failed(statusCode: 500, error: "HTTP 500", retryAt: now), now: now)
        let retried = try store.claimWebhookDeliveries(owner: "b", now: now, leaseUntil: lease, limit: 100)
        XCTAssertEqual(retried.map(\.id), [flaky.id], "the failed one is retried before the next of its test")
        XCTAssertEqual(retried.first?.attempts, 2)
        try store.recordWebhookAttempt(id: flaky.id, owner: "a", outcome: .delivered(statusCode: 200), now: now)
        XCTAssertEqual(
            try store.webhookDeliveries(webhook.id)?.deliveries.first { $0.id == flaky.id }?.status, .pending,
            "an outcome from a claim that lost its lease is ignored")
        try store.recordWebhookAttempt(id: flaky.id, owner: "b", outcome: .delivered(statusCode: 204), now: now)
        let next = try store.claimWebhookDeliveries(owner: "c", now: now, leaseUntil: lease, limit: 100)
        XCTAssertEqual(next.map(\.event), [.testBroken])

        let later = lease.addingTimeInterval(1)
        let expired = try store.claimWebhookDeliveries(
            owner: "d", now: later, leaseUntil: later.addingTimeInterval(30), limit: 100)
        XCTAssertEqual(
            expired.count, 5, "the leases of the runs and the broken event ran out unrecorded: claimed again")
        XCTAssertEqual(Set(expired.map(\.attempts)), [2])

        let log = try XCTUnwrap(try store.webhookDeliveries(webhook.id))
        let delivered = try XCTUnwrap(log.deliveries.first { $0.id == flaky.id })
        XCTAssertEqual(delivered.status, .delivered)
        XCTAssertEqual(delivered.attempts, 2)
        XCTAssertEqual(delivered.lastStatusCode, 204)
        XCTAssertNil(delivered.lastError)
        XCTAssertEqual(log.deliveries.map(\.id), log.deliveries.map(\.id).sorted(by: >), "newest first")
        XCTAssertEqual(try store.pruneWebhookDeliveries(finishedBefore: now), 0, "finished at `now`: kept")
        XCTAssertEqual(try store.pruneWebhookDeliveries(finishedBefore: now.addingTimeInterval(1)), 1)
        XCTAssertEqual(try store.webhookDeliveries(webhook.id)?.deliveries.count, log.deliveries.count - 1)
    }

    /// Each webhook is queued only the events its filter accepts: every event, test events of `main`, events of
    /// `release/*` (none here); registering the URL again replaces its filter; an invalid filter is refused.
    func testFiltersChooseEachWebhooksEvents() throws {
        let every = try store.createWebhook(WebhookCreate(url: "http://127.0.0.1:9/every", secret: "0123456789abcdef"))
        let onMain = try store.createWebhook(
            WebhookCreate(
                url: "http://127.0.0.1:9/main", secret: "0123456789abcdef",
                filter: WebhookFilter(events: [.testBroken, .testFixed], branches: ["main"]))
        ).webhook
        let releases = try store.createWebhook(
            WebhookCreate(
                url: "http://127.0.0.1:9/releases", secret: "0123456789abcdef",
                filter: WebhookFilter(branches: ["release/*"]))
        ).webhook
        XCTAssertEqual(onMain.events, [.testBroken, .testFixed])
        XCTAssertEqual(onMain.branches, ["main"])
        XCTAssertNil(every.webhook.events)
        XCTAssertNil(every.webhook.branches)

        _ = try finishRun(1, commit: "c1", ["testPay": true])
        _ = try finishRun(2, commit: "c1", ["testPay": false])  // flaky
        _ = try finishRun(3, commit: "c3", ["testPay": false])
        _ = try finishRun(4, commit: "c3", ["testPay": false])  // broken
        func events(_ webhook: Webhook) throws -> [WebhookEventType] {
            try XCTUnwrap(try store.webhookDeliveries(webhook.id)).deliveries.reversed().map(\.event)
        }
        XCTAssertEqual(
            try events(every.webhook),
            [.runFinished, .runFinished, .testFlaky, .runFinished, .runFinished, .testBroken])
        XCTAssertEqual(try events(onMain), [.testBroken])
        XCTAssertEqual(try events(releases), [])

        let widened = try store.createWebhook(
            WebhookCreate(
                url: "http://127.0.0.1:9/releases", secret: "fedcba9876543210",
                filter: WebhookFilter(events: [.runFinished], branches: ["release/*", "ma*"])))
        XCTAssertFalse(widened.created)
        XCTAssertEqual(widened.webhook.events, [.runFinished])
        XCTAssertEqual(try store.webhooks().webhooks.first { $0.id == releases.id }?.branches, ["release/*", "ma*"])
        _ = try finishRun(5, commit: "c5", ["testPay": true])
        XCTAssertEqual(try events(releases), [.runFinished])

        for filter in [WebhookFilter(events: []), WebhookFilter(branches: [""]), WebhookFilter(branches: [])] {
            XCTAssertThrowsError(
                try store.createWebhook(
                    WebhookCreate(url: "http://127.0.0.1:9/bad", secret: "0123456789abcdef", filter: filter))
            ) { error in
                guard case .invalid(let message)? = error as? StoreError else { return XCTFail("\(error)") }
                XCTAssertEqual(message, filter.problem)
            }
        }
        XCTAssertEqual(try store.webhooks().webhooks.count, 3, "nothing refused was stored")
    }

    /// A finish that arrives while its run is being evaluated leaves the run to be evaluated again; configured webhooks
    /// keep their ids across restarts and go when no longer configured; an API webhook cannot be replaced by one.
    func testRefinishedRunsAndConfiguredWebhooks() throws {
        try store.configureWebhooks(urls: ["https://hooks.example/a", "https://hooks.example/b"], secret: "s1")
        let b = try XCTUnwrap(try store.webhooks().webhooks.first { $0.url == "https://hooks.example/b" })
        try store.configureWebhooks(urls: ["https://hooks.example/b"], secret: "s2")
        XCTAssertEqual(try store.webhooks().webhooks, [b], "b keeps its id; a is gone")
        XCTAssertThrowsError(try store.deleteWebhook(b.id)) { error in
            guard case .conflict(let message)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("--webhook"), message)
        }
        XCTAssertThrowsError(try store.configureWebhooks(urls: ["ftp://x"], secret: "s"))
        XCTAssertThrowsError(try store.createWebhook(WebhookCreate(url: "https://hooks.example/c", secret: "short")))

        try store.putRun(sampleRun(id: "again", startedAt: now))
        try store.finishRun("again", RunFinish(finishedAt: now))
        try store.scheduleWebhookCheck(runID: "again", dueAt: now)
        let claim = try XCTUnwrap(
            try store.claimWebhookChecks(owner: "w", now: now, leaseUntil: now.addingTimeInterval(60), limit: 1).first)
        try store.scheduleWebhookCheck(runID: "again", dueAt: now)  // another process's finish, meanwhile
        let drafts = try store.evaluateWebhookCheck(runID: "again", requestID: claim.requestID, owner: "w", now: now) {
            $0.id
        }
        XCTAssertEqual(drafts.map(\.type), [.runFinished])
        let job = try store.claimWebhookDeliveries(
            owner: "d", now: now, leaseUntil: now.addingTimeInterval(9), limit: 9)
        XCTAssertEqual(job.map(\.secret), ["s2"], "b signs with the secret of the newest configuration")
        XCTAssertEqual(
            try store.claimWebhookChecks(owner: "w2", now: now, leaseUntil: now.addingTimeInterval(60), limit: 1).map(
                \.runID), ["again"], "evaluated again for the later finish")
    }
}
