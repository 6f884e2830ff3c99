import FailscopeModel
import FailscopeTesting
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// Unique errors and a run's failures with verdicts (docs/errors.md, docs/flaky.md), on both engines.
final class ErrorsTests: StoreTestCase {
    private var store: FailscopeStore!

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    private let screen = String(repeating: "ab", count: 32)

    private func failure(_ name: String, _ message: String, line: Int, attempt: Int = 1, screenshot: String? = nil)
        -> TestResult
    {
        TestResult(
            suite: "CartTests", name: name, attempt: attempt, status: .failed,
            failures: [Failure(message: message, location: SourceLocation(file: "/ci/CartTests.swift", line: line), page: "CartPage")],
            artifacts: screenshot.map { [ArtifactRef(sha256: $0, kind: .screenshot, byteCount: 100, width: 4, height: 3)] }
                ?? [])
    }

    private func pass(_ name: String, attempt: Int = 1) -> TestResult {
        TestResult(suite: "CartTests", name: name, attempt: attempt, status: .passed)
    }

    /// run-1 (main): A and B time out on one screen; C passes. run-2 (main): A again, C fails anew (it passed
    /// in run-1), D fails then passes on retry. run-3 (dev): A's error, first seen on dev.
    private func seed() throws {
        let timeout = "Timed out after 3s waiting for \"Apply\""
        func run(_ id: String, branch: String, commit: String, hour: Double, _ results: [TestResult]) throws {
            var run = sampleRun(id: id, branch: branch, startedAt: referenceDate.addingTimeInterval(hour * 3600))
            run.commit = commit
            try store.putRun(run)
            try store.addResults(ResultBatch(results: results), toRun: id)
            try store.finishRun(id, RunFinish(finishedAt: run.startedAt.addingTimeInterval(60)))
        }
        try run(
            "run-1", branch: "main", commit: "c1", hour: 0,
            [
                failure("testA", timeout, line: 10, screenshot: screen),
                failure("testB", "Timed out after 5s waiting for \"Pay\"", line: 10, screenshot: screen), pass("testC"),
                pass("testD"),
            ])
        try run(
            "run-2", branch: "main", commit: "c2", hour: 1,
            [
                failure("testA", timeout, line: 10), failure("testC", "Crashed at 0x7ff8a3b2c010", line: 20),
                failure("testD", "Cart total is 12.5, not 10", line: 30), pass("testD", attempt: 2),
            ])
        try run("run-3", branch: "dev", commit: "c3", hour: 2, [failure("testA", timeout, line: 10)])
    }

    func testEachFailedResultStoresItsSignature() throws {
        try seed()
        let stored = try store.read { db in
            try db.query("SELECT DISTINCT failure_signature FROM results WHERE failure_signature IS NOT NULL ORDER BY 1") {
                $0.string(0)
            }
        }
        XCTAssertEqual(stored.count, 3)
        let passed = try store.read { db in
            try db.scalar("SELECT count(*) FROM results WHERE status = 'passed' AND failure_signature IS NOT NULL")
        }
        XCTAssertEqual(passed, .integer(0))
    }

    func testErrorsAreRankedByTestsThenRunsWithFirstAndLastSeen() throws {
        try seed()
        let list = try store.errors(.init(project: "Shop", now: referenceDate.addingTimeInterval(86_400)))
        XCTAssertEqual(list.errors.count, 3)
        let top = list.errors[0]
        XCTAssertEqual(top.signature.message, "Timed out after <n>s waiting for \"…\"")
        XCTAssertEqual(top.signature.location, "CartTests.swift:10")
        XCTAssertEqual([top.tests, top.runs, top.failures], [2, 3, 4])
        XCTAssertEqual(top.firstSeen.runId, "run-1")
        XCTAssertEqual(top.firstSeen.commit, "c1")
        XCTAssertEqual(top.lastSeen.runId, "run-3")
        XCTAssertEqual(top.pages, ["CartPage"])
        XCTAssertEqual(top.devices, ["iPhone 15"])
        XCTAssertEqual(list.errors.dropFirst().map { [$0.tests, $0.runs, $0.failures] }, [[1, 1, 1], [1, 1, 1]])
        XCTAssertEqual(
            list.errors.dropFirst().map(\.signature.id), list.errors.dropFirst().map(\.signature.id).sorted())
        // On a branch: dev has only the timeout, first seen there in run-3.
        let dev = try store.errors(.init(project: "Shop", branch: "dev", now: referenceDate.addingTimeInterval(86_400)))
        XCTAssertEqual(dev.errors.map { [$0.tests, $0.runs] }, [[1, 1]])
        XCTAssertEqual(dev.errors[0].firstSeen.runId, "run-3")
        // A window that ends before the runs, another project, bad parameters.
        XCTAssertEqual(try store.errors(.init(project: "Shop", days: 1, now: referenceDate.addingTimeInterval(3 * 86_400))).errors, [])
        XCTAssertEqual(try store.errors(.init(project: "Bank", now: referenceDate)).errors, [])
        XCTAssertThrowsError(try store.errors(.init(project: "Shop", days: 0)))
        XCTAssertThrowsError(try store.errors(.init(project: "Shop", limit: 201)))
    }

    func testARunsFailuresGetVerdictsNewErrorsAndGroups() throws {
        try seed()
        let first = try store.runErrors(XCTUnwrap(try store.runDetail("run-1")), base: nil)
        XCTAssertEqual(first.failures.map(\.result.name), ["testA", "testB"])
        XCTAssertEqual(first.failures.map(\.verdict), [.new, .new])
        XCTAssertEqual(first.signatures.count, 1)
        XCTAssertEqual(first.newErrors, [first.signatures[0].id])
        let ids = first.failures.map(\.result.id)
        XCTAssertEqual(first.bySignature, [RunErrors.Group(key: first.signatures[0].id, resultIds: ids)])
        XCTAssertEqual(first.byScreenshot, [RunErrors.Group(key: screen, resultIds: ids)])

        let second = try store.runErrors(XCTUnwrap(try store.runDetail("run-2")), base: try store.runSummary("run-1"))
        XCTAssertEqual(second.baseRunId, "run-1")
        XCTAssertEqual(second.failures.map(\.result.name), ["testA", "testC", "testD"])
        // A: seen before, failed in the base. C: passed in the base. D: failed and passed on commit c2.
        XCTAssertEqual(second.failures.map(\.verdict), [.known, .regression, .likelyFlaky])
        XCTAssertEqual(second.newErrors, [second.failures[1].signatureId!, second.failures[2].signatureId!])
        XCTAssertEqual(second.bySignature, [])
        XCTAssertEqual(second.byScreenshot, [])

        // The run's failing results alone say the same (the service reads only those).
        XCTAssertEqual(
            try store.runErrors(
                XCTUnwrap(try store.runDetail("run-2", statuses: TestStatus.failing)),
                base: try store.runSummary("run-1")), second)

        // On dev the timeout was never seen before: new there, though main knows it.
        let third = try store.runErrors(XCTUnwrap(try store.runDetail("run-3")), base: try store.runSummary("run-2"))
        XCTAssertEqual(third.failures.map(\.verdict), [.new])
        XCTAssertEqual(third.newErrors, [first.signatures[0].id])
    }
}
