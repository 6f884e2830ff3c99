import FailscopeModel
import XCTest

@_spi(Engine) @testable import FailscopeStore

final class IngestTests: StoreTestCase {
    private var store: FailscopeStore!

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    func testPutRunIsIdempotentAndUpdatesMetadata() throws {
        XCTAssertEqual(try store.putRun(sampleRun()), .created)
        XCTAssertEqual(try store.putRun(sampleRun()), .updated)
        var changed = sampleRun()
        changed.branch = "release"
        try store.putRun(changed)
        let list = try store.runs(.init())
        XCTAssertEqual(list.runs.count, 1)
        XCTAssertEqual(list.runs[0].run.branch, "release")
        XCTAssertEqual(list.runs[0].run.ciBuildURL, "https://ci.example/1")
        XCTAssertEqual(list.runs[0].status, .incomplete)
    }

    func testProcessesOfOneRunReportingInAnyOrderGiveTheEarliestStartAndTheLatestFinish() throws {
        // `swift test --parallel`: every process PUTs the run with its own start, then finishes it.
        let early = referenceDate
        let late = referenceDate.addingTimeInterval(20)
        try store.putRun(sampleRun(startedAt: late))
        try store.finishRun("run-1", RunFinish(finishedAt: late.addingTimeInterval(1)))
        try store.putRun(sampleRun(startedAt: early))
        XCTAssertEqual(try store.runSummary("run-1")?.run.startedAt, early)
        XCTAssertEqual(try store.runSummary("run-1")?.run.finishedAt, late.addingTimeInterval(1), "still finished")
        // A process that started first and finished before the last one started is not refused.
        try store.finishRun("run-1", RunFinish(finishedAt: early.addingTimeInterval(5)))
        try store.putRun(sampleRun(startedAt: late.addingTimeInterval(3)))
        var noDevice = sampleRun(startedAt: late)
        noDevice.device = nil
        noDevice.osVersion = nil
        try store.putRun(noDevice)
        let summary = try XCTUnwrap(store.runSummary("run-1"))
        XCTAssertEqual(summary.run.startedAt, early)
        XCTAssertEqual(summary.run.finishedAt, late.addingTimeInterval(1), "the latest finish")
        XCTAssertEqual(summary.run.device, "iPhone 15", "a process that saw no device keeps the run's")
        XCTAssertEqual(summary.run.osVersion, "iOS 17.5")
        var finishing = sampleRun(startedAt: late)
        finishing.finishedAt = late.addingTimeInterval(30)
        try store.putRun(finishing)
        XCTAssertEqual(try store.runSummary("run-1")?.run.finishedAt, late.addingTimeInterval(30))
    }

    func testRunProjectCannotChangeAndInvalidRunsAreRefused() throws {
        try store.putRun(sampleRun())
        XCTAssertThrowsError(try store.putRun(sampleRun(project: "Other"))) { error in
            guard case .conflict? = error as? StoreError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try store.putRun(sampleRun(id: "../etc"))) { error in
            guard case .invalid? = error as? StoreError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try store.putRun(sampleRun(project: "")))
    }

    func testResultsAreIdempotentPerKeyAndCountedOnce() throws {
        try store.putRun(sampleRun())
        let batch = ResultBatch(results: [failingResult(), passingResult(), failingResult(attempt: 2)])
        XCTAssertEqual(try store.addResults(batch, toRun: "run-1"), .init(inserted: 3, duplicates: 0))
        XCTAssertEqual(try store.addResults(batch, toRun: "run-1"), .init(inserted: 0, duplicates: 3))
        let summary = try XCTUnwrap(store.runSummary("run-1"))
        XCTAssertEqual(summary.counts, ResultCounts(total: 3, passed: 1, failed: 2, failingTests: 1))
        let rows = try store.read { try $0.scalar("SELECT count(*) FROM failures").int }
        XCTAssertEqual(rows, 2)
    }

    func testRetryThatPassesMakesTheFinishedRunPass() throws {
        try store.putRun(sampleRun())
        var retry = failingResult(attempt: 2)
        retry.status = .passed
        retry.failures = []
        try store.addResults(ResultBatch(results: [failingResult(), retry]), toRun: "run-1")
        let finished = try store.finishRun("run-1", RunFinish(finishedAt: referenceDate.addingTimeInterval(60)))
        XCTAssertEqual(finished.status, .passed)
        XCTAssertEqual(finished.counts.failingTests, 0)
        XCTAssertEqual(finished.counts.failed, 1)
        XCTAssertEqual(finished.run.finishedAt, referenceDate.addingTimeInterval(60))
        // A late failing batch turns the finished run failed.
        try store.addResults(ResultBatch(results: [failingResult(name: "testOther")]), toRun: "run-1")
        XCTAssertEqual(try store.runSummary("run-1")?.status, .failed)
        // A PUT without finishedAt does not reopen it.
        try store.putRun(sampleRun())
        XCTAssertEqual(try store.runSummary("run-1")?.status, .failed)
    }

    func testBatchForUnknownRunAndInvalidBatchStoreNothing() throws {
        XCTAssertThrowsError(try store.addResults(ResultBatch(results: [passingResult()]), toRun: "nope")) { error in
            XCTAssertEqual(error as? StoreError, .runNotFound("nope"))
        }
        try store.putRun(sampleRun())
        var bad = passingResult(name: "testB")
        bad.attempt = 0
        XCTAssertThrowsError(try store.addResults(ResultBatch(results: [passingResult(), bad]), toRun: "run-1")) {
            error in
            XCTAssertEqual(error as? StoreError, .invalid("results[1].attempt must be 1...1000"))
        }
        XCTAssertEqual(try store.runSummary("run-1")?.counts.total, 0)
        XCTAssertThrowsError(try store.finishRun("nope", RunFinish(finishedAt: referenceDate)))
    }

    func testReservedDeviceOverlongFieldsNULsAndIdentitySeparatorsAreRefused() throws {
        var starRun = sampleRun()
        starRun.device = "*"
        XCTAssertThrowsError(try store.putRun(starRun)) { error in
            XCTAssertEqual(error as? StoreError, .invalid("device '*' is reserved: it stands for every device"))
        }
        var separatorRun = sampleRun()
        separatorRun.project = "Shop\u{1F}Kit"
        XCTAssertThrowsError(try store.putRun(separatorRun)) { error in
            XCTAssertEqual(
                error as? StoreError,
                .invalid("project must not contain U+001F (it separates the fields of a test's identity)"))
        }
        try store.putRun(sampleRun())
        let long = String(repeating: "p", count: 4097)
        var cases: [(TestResult, String)] = []
        var result = passingResult(name: "testStar")
        result.device = "*"
        cases.append((result, "results[0].device '*' is reserved: it stands for every device"))
        result = passingResult(name: "testLongDevice")
        result.device = long
        cases.append((result, "results[0].device is longer than 4096 bytes"))
        result = failingResult(name: "testLongPage")
        result.failures[0].page = long
        cases.append((result, "results[0].failures[0].page is longer than 4096 bytes"))
        result = passingResult(name: "testLongTrail")
        result.trail = [TrailStep(page: long)]
        cases.append((result, "results[0].trail[0].page is longer than 4096 bytes"))
        result = passingResult(name: "testNUL\u{0}")
        cases.append((result, "results[0].name must not contain a NUL character"))
        // Suite "a␟b" + name "c" and suite "a" + name "b␟c" would be one test.
        result = passingResult(suite: "a\u{1F}b", name: "c")
        cases.append((result, "results[0].suite must not contain U+001F (it separates the fields of a test's identity)"))
        result = passingResult(name: "test")
        result.arguments = "x\u{1F}y"
        cases.append(
            (result, "results[0].arguments must not contain U+001F (it separates the fields of a test's identity)"))
        for (bad, message) in cases {
            XCTAssertThrowsError(try store.addResults(ResultBatch(results: [bad]), toRun: "run-1")) { error in
                XCTAssertEqual(error as? StoreError, .invalid(message))
            }
        }
        XCTAssertEqual(try store.runSummary("run-1")?.counts.total, 0)
    }

    func testHostileTextIsStoredVerbatimButNUL() throws {
        let injection = "x'); DROP TABLE results; --"
        let html = "<script>alert(1)</script><img src=x onerror=alert(2)>"
        var run = sampleRun()
        run.branch = injection
        try store.putRun(run)
        var result = failingResult(suite: html, name: injection)
        result.failures[0].message = html + "\u{0}" + injection
        try store.addResults(ResultBatch(results: [result]), toRun: "run-1")
        let detail = try XCTUnwrap(store.runDetail("run-1"))
        let summary = try XCTUnwrap(detail.pages.first?.callSites.first?.results.first)
        XCTAssertEqual(summary.suite, html)
        XCTAssertEqual(summary.name, injection)
        XCTAssertEqual(summary.message, html + "\u{FFFD}" + injection, "NUL as U+FFFD, on both engines")
        XCTAssertEqual(detail.summary.run.branch, injection)
        XCTAssertEqual(try store.read { try $0.scalar("SELECT count(*) FROM results").int }, 1)
    }

    func testBranchChangeIsCopiedToStoredResults() throws {
        try store.putRun(sampleRun())
        try store.addResults(ResultBatch(results: [passingResult()]), toRun: "run-1")
        var run = sampleRun()
        run.branch = "feature"
        run.commit = "def456"
        try store.putRun(run)
        let row = try store.read { db in
            try db.queryFirst("SELECT branch, commit_sha, device FROM results") {
                ($0.string(0), $0.string(1), $0.string(2))
            }
        }
        XCTAssertEqual(row?.0, "feature")
        XCTAssertEqual(row?.1, "def456")
        XCTAssertEqual(row?.2, "iPhone 15")
    }
}

final class FailingTestCountTests: StoreTestCase {
    /// The incremental count kept per batch equals a full recount, whatever order attempts arrive in.
    func testIncrementalFailingCountMatchesAFullRecount() throws {
        let store = try makeStore()
        defer { store.close() }
        try store.putRun(sampleRun())
        func result(_ name: String, _ attempt: Int, _ status: TestStatus, device: String? = nil) -> TestResult {
            TestResult(suite: "S", name: name, device: device, attempt: attempt, status: status)
        }
        let batches: [[TestResult]] = [
            [result("a", 1, .failed), result("b", 1, .failed), result("c", 1, .passed)],
            [result("a", 2, .passed), result("b", 3, .error), result("c", 1, .failed)],
            [result("b", 2, .passed), result("d", 1, .failed, device: "iPad"), result("d", 1, .passed)],
            [result("c", 2, .failed), result("a x", 1, .failed)],
            // Several attempts of one test in one batch, out of order.
            [result("e", 2, .passed), result("e", 1, .failed), result("f", 1, .failed), result("f", 2, .error)],
            // Results without a device are on the run's device: naming it is the same test, in later batches.
            [result("g", 1, .failed), result("h", 1, .passed)],
            [result("g", 2, .passed, device: "iPhone 15"), result("h", 1, .failed, device: "iPhone 15")],
        ]
        for batch in batches {
            try store.addResults(ResultBatch(results: batch), toRun: "run-1")
            let incremental = try XCTUnwrap(store.runSummary("run-1")).counts.failingTests
            let recount = try store.read { db in
                try db.scalar(
                    """
                    SELECT count(*) FROM (
                        SELECT max(attempt * 2 + CASE WHEN status IN ('failed', 'error') THEN 1 ELSE 0 END) AS last
                        FROM results WHERE run_id = 'run-1' GROUP BY test_id, device) AS latest WHERE last % 2 = 1
                    """
                ).int
            }
            XCTAssertEqual(incremental, recount)
        }
        // a passed on retry; b's attempt 3 errored; c's attempt 2 failed; d failed on iPad; "a x" failed;
        // e passed on its attempt 2; f's attempt 2 errored; g passed on its attempt 2; h's attempt 1 failed
        // once (a failed attempt counts first among equal ones).
        XCTAssertEqual(try store.runSummary("run-1")?.counts.failingTests, 6)
    }
}

final class IngestTimeTests: StoreTestCase {
    func testTimesFarOutsideTheirRangeAreRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try makeStore(directory: directory)
        defer { store.close() }
        let now = Date(timeIntervalSince1970: 1_764_400_000)
        let far = WireCoding.parseDate("9999-12-31T00:00:00Z")!
        XCTAssertThrowsError(try store.putRun(Run(id: "future", project: "P", startedAt: far), now: now)) { error in
            XCTAssertTrue("\(error)".contains("startedAt must lie between 2000-01-01"), "\(error)")
        }
        let ancient = Date(timeIntervalSince1970: -62_135_596_800)  // 0001-01-01
        XCTAssertThrowsError(try store.putRun(Run(id: "ancient", project: "P", startedAt: ancient), now: now))
        try store.putRun(Run(id: "ok", project: "P", startedAt: now), now: now)
        XCTAssertThrowsError(try store.finishRun("ok", RunFinish(finishedAt: now.addingTimeInterval(-60)), now: now)) { error in
            XCTAssertTrue("\(error)".contains("before the run's startedAt"), "\(error)")
        }
        XCTAssertEqual(try store.finishRun("ok", RunFinish(finishedAt: now.addingTimeInterval(60)), now: now).run.id, "ok")

        let negative = TestResult(
            suite: "S", name: "t", status: .failed,
            failures: [Failure(message: "m", location: SourceLocation(file: "a.swift", line: -3))])
        XCTAssertThrowsError(try store.addResults(ResultBatch(results: [negative]), toRun: "ok")) { error in
            XCTAssertTrue("\(error)".contains("failures[0].location.line must be >= 0"), "\(error)")
        }
    }
}
