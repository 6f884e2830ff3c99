import FailscopeModel
import FailscopeTesting
import XCTest

@testable import FailscopeStore

/// The quarantine: what an entry applies to (its test, narrowing, validity interval), the run counts and status
/// that forgive, the audit log, the rules; on both engines (`StoreTestCase`).
final class QuarantineTests: StoreTestCase {
    private var store: FailscopeStore!
    private let start = StoreTestCase.threeDaysAgoOnTheHour

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    /// A finished run of "Shop" started `minutes` after `start` whose results (startedAt one minute later) are
    /// `(name, attempt, status, device)`.
    @discardableResult
    private func run(
        _ id: String, minutes: Double, _ results: [(String, Int, TestStatus, String?)], page: String = "LoginPage"
    ) throws -> RunSummary {
        let started = start.addingTimeInterval(minutes * 60)
        try store.putRun(sampleRun(id: id, startedAt: started))
        try store.addResults(
            ResultBatch(
                results: results.map { name, attempt, status, device in
                    TestResult(
                        suite: "LoginTests", name: name, device: device, attempt: attempt, status: status,
                        startedAt: started.addingTimeInterval(60),
                        failures: status == .failed ? [Failure(message: "boom", page: page)] : [],
                        trail: [TrailStep(page: page)])
                }), toRun: id)
        return try store.finishRun(id, RunFinish(finishedAt: started.addingTimeInterval(600)))
    }

    private func quarantine(
        _ name: String, device: String? = nil, page: String? = nil, days: Double = 2, minutes: Double = 0
    ) throws -> QuarantineEntry {
        let now = start.addingTimeInterval(minutes * 60)
        return try store.addQuarantine(
            QuarantineRequest(
                project: "Shop", suite: "LoginTests", name: name, page: page, device: device, owner: "ana",
                reason: "fails on the slow simulator",
                expires: QuarantineEntry.dayText(now.addingTimeInterval(days * 86_400))),
            role: .upload, now: now)
    }

    private func quarantinedNames(_ runID: String) throws -> [String] {
        let results = try XCTUnwrap(store.runDetail(runID)).pages.flatMap(\.callSites).flatMap(\.results)
        return results.filter(\.quarantined).map { "\($0.name)#\($0.attempt)" }.sorted()
    }

    func testAnEntryForgivesItsTestsFailuresOnlyWhileItApplies() throws {
        try run("before", minutes: -30, [("testFlaky", 1, .failed, nil)])
        let entry = try quarantine("testFlaky")
        XCTAssertEqual(entry.state, .active)
        XCTAssertEqual(entry.createdAt, start)

        // Only quarantined tests fail: the run failed, and with the quarantine it passes.
        let only = try run("only", minutes: 10, [("testFlaky", 1, .failed, nil), ("testOther", 1, .passed, nil)])
        XCTAssertEqual(only.status, .failed)
        XCTAssertEqual(only.counts.failingTests, 1)
        XCTAssertEqual(only.counts.quarantinedFailingTests, 1)
        XCTAssertEqual(only.statusWithQuarantine, .passed)
        XCTAssertEqual(try quarantinedNames("only"), ["testFlaky#1"])

        // Another failing test keeps the run failed; a retry's attempts are all marked, the last one counts.
        let mixed = try run(
            "mixed", minutes: 20,
            [("testFlaky", 1, .failed, nil), ("testFlaky", 2, .failed, nil), ("testBroken", 1, .failed, nil)])
        XCTAssertEqual(mixed.counts.failingTests, 2)
        XCTAssertEqual(mixed.counts.quarantinedFailingTests, 1)
        XCTAssertEqual(mixed.statusWithQuarantine, .failed)
        XCTAssertEqual(try quarantinedNames("mixed"), ["testFlaky#1", "testFlaky#2"])

        // A quarantined test that passed on retry is not a failing test: nothing to forgive.
        let retried = try run("retried", minutes: 30, [("testFlaky", 1, .failed, nil), ("testFlaky", 2, .passed, nil)])
        XCTAssertEqual(retried.status, .passed)
        XCTAssertEqual(retried.counts.quarantinedFailingTests, 0)
        XCTAssertEqual(retried.statusWithQuarantine, .passed)

        // Before the entry existed nothing was quarantined; the run lists say the same as the run itself.
        XCTAssertEqual(try quarantinedNames("before"), [])
        let listed = try store.runs(.init(project: "Shop")).runs
        XCTAssertEqual(
            listed.map { "\($0.run.id):\($0.counts.quarantinedFailingTests):\($0.statusWithQuarantine.rawValue)" },
            ["retried:0:passed", "mixed:1:failed", "only:1:passed", "before:0:failed"])

        // Lifted: later results are not quarantined, earlier ones stay so (history does not change).
        let lifted = try store.liftQuarantine(
            entry.id, QuarantineLift(why: "fixed the wait", actor: "bo"), role: .admin,
            now: start.addingTimeInterval(40 * 60))
        XCTAssertEqual(lifted.state, .lifted)
        XCTAssertEqual(lifted.endsAt, start.addingTimeInterval(40 * 60))
        let after = try run("after-lift", minutes: 50, [("testFlaky", 1, .failed, nil)])
        XCTAssertEqual(after.counts.quarantinedFailingTests, 0)
        XCTAssertEqual(after.statusWithQuarantine, .failed)
        XCTAssertEqual(try store.runSummary("only")?.statusWithQuarantine, .passed)
        XCTAssertEqual(try quarantinedNames("mixed"), ["testFlaky#1", "testFlaky#2"])

        // The result page and the test's history mark the same results.
        let history = try XCTUnwrap(
            store.testHistory(
                TestIdentity.id(
                    project: "Shop", suite: "LoginTests", name: "testFlaky", arguments: nil)))
        XCTAssertEqual(history.entries.filter(\.result.quarantined).count, 5, "passing results are marked too")
        let marked = try XCTUnwrap(history.entries.first { $0.result.quarantined })
        XCTAssertEqual(try store.resultDetail(marked.result.id)?.result.quarantined, true)

        // Flaky and broken analysis goes on: a quarantined test is still judged.
        var query = FailscopeStore.FlakyQuery()
        query.project = "Shop"
        let report = try store.flakyTests(query)
        XCTAssertEqual(
            Set(report.flaky.map(\.name) + report.broken.map(\.name)).intersection(["testFlaky"]), ["testFlaky"])
    }

    func testAnExpiredEntryStopsApplyingByItself() throws {
        try run("seen", minutes: -5, [("testFlaky", 1, .passed, nil)])
        let entry = try quarantine("testFlaky", days: 0)
        // The expiry day is today (for the store): the entry ends at the next midnight UTC.
        XCTAssertEqual(entry.endsAt, QuarantineEntry.day(entry.expires)!.addingTimeInterval(86_400))
        let inside = try run("inside", minutes: 5, [("testFlaky", 1, .failed, nil)])
        XCTAssertEqual(inside.statusWithQuarantine, .passed)
        let minutesToEnd = entry.endsAt.timeIntervalSince(start) / 60
        let outside = try run("outside", minutes: minutesToEnd + 1, [("testFlaky", 1, .failed, nil)])
        XCTAssertEqual(outside.counts.quarantinedFailingTests, 0)
        XCTAssertEqual(outside.statusWithQuarantine, .failed)
        XCTAssertEqual(try store.quarantine(.init(project: "Shop")).entries.map(\.id), [], "no longer active now")
        let all = try store.quarantine(.init(project: "Shop", includeEnded: true)).entries
        XCTAssertEqual(all.map(\.state), [.expired])
    }

    func testDevicePageAndArgumentsNarrowAnEntry() throws {
        try run("seen", minutes: -5, [("testOnIPad", 1, .passed, nil)])
        _ = try quarantine("testOnIPad", device: "iPad")
        _ = try quarantine("testOnCatalog", page: "CatalogPage")
        try run(
            "devices", minutes: 5,
            [
                ("testOnIPad", 1, .failed, "iPad"), ("testOnIPad", 1, .failed, "iPhone 15"),
                ("testOnCatalog", 1, .failed, nil),
            ])
        try run("catalog", minutes: 6, [("testOnCatalog", 1, .failed, nil)], page: "CatalogPage")
        let devices = try XCTUnwrap(store.runDetail("devices")).pages.flatMap(\.callSites).flatMap(\.results)
        XCTAssertEqual(
            devices.map { "\($0.name)/\($0.device ?? "-"):\($0.quarantined)" }.sorted(),
            ["testOnCatalog/iPhone 15:false", "testOnIPad/iPad:true", "testOnIPad/iPhone 15:false"])
        XCTAssertEqual(try store.runSummary("devices")?.counts.quarantinedFailingTests, 1)
        XCTAssertEqual(try store.runSummary("catalog")?.statusWithQuarantine, .passed)
    }

    func testEveryChangeIsRecordedWithWhoWhenAndWhy() throws {
        try run("seen", minutes: -5, [("testFlaky", 1, .passed, nil)])
        let entry = try quarantine("testFlaky")
        let later = start.addingTimeInterval(600)
        let edited = try store.editQuarantine(
            entry.id,
            QuarantineEdit(
                owner: "bo", reason: "waits for the new simulator",
                expires: QuarantineEntry.dayText(later.addingTimeInterval(5 * 86_400)),
                why: "needs a week more", actor: "carla"), role: .admin, now: later)
        XCTAssertEqual(edited.owner, "bo")
        XCTAssertEqual(edited.expires, QuarantineEntry.dayText(later.addingTimeInterval(5 * 86_400)))
        let lifted = try store.liftQuarantine(
            entry.id, QuarantineLift(why: "fixed", actor: "dan"), role: .upload, now: later.addingTimeInterval(60))
        XCTAssertEqual(
            lifted.changes,
            [
                .init(action: .added, role: .upload, actor: "ana", why: "fails on the slow simulator", at: start),
                .init(action: .edited, role: .admin, actor: "carla", why: "needs a week more", at: later),
                .init(action: .lifted, role: .upload, actor: "dan", why: "fixed", at: later.addingTimeInterval(60)),
            ])
        XCTAssertEqual(try store.quarantineEntry(entry.id), lifted)
        // A lifted entry is history: it cannot change again.
        XCTAssertThrowsError(
            try store.liftQuarantine(
                entry.id, QuarantineLift(why: "again"), role: .admin, now: later.addingTimeInterval(120))
        ) { XCTAssertEqual(($0 as? StoreError).map { if case .conflict = $0 { true } else { false } }, true) }
        XCTAssertThrowsError(try store.liftQuarantine(999, QuarantineLift(why: "x"), role: .admin)) {
            XCTAssertEqual($0 as? StoreError, .notFound(kind: "quarantine", id: "999"))
        }
    }

    func testAChangeWithoutAnActorNamesNobody() throws {
        try run("seen", minutes: -5, [("testFlaky", 1, .passed, nil)])
        let entry = try quarantine("testFlaky")
        let later = start.addingTimeInterval(600)
        _ = try store.editQuarantine(
            entry.id,
            QuarantineEdit(
                owner: "bo", reason: "waits for the new simulator", expires: QuarantineEntry.dayText(later),
                why: "bo takes it"), role: .admin, now: later)
        let lifted = try store.liftQuarantine(entry.id, QuarantineLift(why: "fixed"), role: .admin, now: later)
        XCTAssertEqual(
            lifted.changes.map(\.actor), ["ana", "", ""], "an owner is named as the adder only (a request's default)")
    }

    func testBadRequestsAreRefusedAndStoreNothing() throws {
        try run("seen", minutes: -5, [("testFlaky", 1, .passed, nil)])
        let today = QuarantineEntry.dayText(start)
        func request(
            project: String = "Shop", name: String = "testFlaky", owner: String = "ana", reason: String = "slow",
            expires: String? = nil, actor: String? = nil
        ) -> QuarantineRequest {
            QuarantineRequest(
                project: project, suite: "LoginTests", name: name, owner: owner, reason: reason,
                expires: expires ?? today, actor: actor)
        }
        let cases: [(QuarantineRequest, StoreError)] = [
            (request(project: "Nobody"), .notFound(kind: "project", id: "Nobody")),
            (
                request(expires: QuarantineEntry.dayText(start.addingTimeInterval(-86_400))),
                .invalid(
                    "expires \(QuarantineEntry.dayText(start.addingTimeInterval(-86_400))) is in the past; the last day of a quarantine is today or later"
                )
            ),
            (request(expires: "2026-02-30"), .invalid("expires must be a date YYYY-MM-DD, got \"2026-02-30\"")),
            (request(expires: "tomorrow"), .invalid("expires must be a date YYYY-MM-DD, got \"tomorrow\"")),
            (
                request(reason: "line\nbreak"),
                .invalid("reason must not contain control characters (line breaks, tabs, escapes)")
            ),
            (
                request(actor: "\u{1B}[31mred"),
                .invalid("actor must not contain control characters (line breaks, tabs, escapes)")
            ),
            (request(owner: " "), .invalid("owner must not be empty")),
            (
                request(reason: String(repeating: "é", count: 501)),
                .invalid("reason is longer than \(QuarantineRequest.textBytes) bytes")
            ),
            (request(name: ""), .invalid("name must not be empty")),
        ]
        for (bad, expected) in cases {
            XCTAssertThrowsError(try store.addQuarantine(bad, role: .upload, now: start)) {
                XCTAssertEqual($0 as? StoreError, expected)
            }
        }
        XCTAssertEqual(try store.quarantine(.init(includeEnded: true)).entries, [])

        let entry = try store.addQuarantine(request(), role: .upload, now: start)
        XCTAssertEqual(entry.expires, today)
        XCTAssertThrowsError(try store.addQuarantine(request(), role: .admin, now: start)) {
            XCTAssertEqual(
                $0 as? StoreError,
                .conflict("quarantine entry \(entry.id) already applies to this test; edit or lift it instead"))
        }
        XCTAssertThrowsError(
            try store.editQuarantine(
                entry.id, QuarantineEdit(owner: "ana", reason: "slow", expires: today, why: "tab\there"),
                role: .upload, now: start)
        ) {
            XCTAssertEqual(
                $0 as? StoreError, .invalid("why must not contain control characters (line breaks, tabs, escapes)"))
        }
        XCTAssertEqual(try store.quarantineEntry(entry.id)?.changes.count, 1, "a refused edit records nothing")
    }
}
