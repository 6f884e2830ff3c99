import FailscopeModel
import FailscopeTesting
import XCTest

@testable import FailscopeStore

final class QueryTests: StoreTestCase {
    private var store: FailscopeStore!

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    func testRunListFiltersAndPagesWithACursor() throws {
        for index in 0..<7 {
            try store.putRun(
                sampleRun(
                    id: "run-\(index)", project: index < 5 ? "Shop" : "Bank", branch: index % 2 == 0 ? "main" : "dev",
                    startedAt: referenceDate.addingTimeInterval(Double(index) * 60)))
        }
        try store.finishRun("run-4", RunFinish(finishedAt: referenceDate.addingTimeInterval(999)))
        let first = try store.runs(.init(project: "Shop", limit: 2))
        XCTAssertEqual(first.runs.map(\.run.id), ["run-4", "run-3"])
        let second = try store.runs(.init(project: "Shop", limit: 2, cursor: first.nextCursor))
        XCTAssertEqual(second.runs.map(\.run.id), ["run-2", "run-1"])
        let third = try store.runs(.init(project: "Shop", limit: 2, cursor: second.nextCursor))
        XCTAssertEqual(third.runs.map(\.run.id), ["run-0"])
        XCTAssertNil(third.nextCursor)
        XCTAssertEqual(
            try store.runs(.init(project: "Shop", branch: "main")).runs.map(\.run.id), ["run-4", "run-2", "run-0"])
        XCTAssertEqual(try store.runs(.init(status: .passed)).runs.map(\.run.id), ["run-4"])
        XCTAssertEqual(try store.runs(.init(status: .incomplete)).runs.count, 6)
        XCTAssertThrowsError(try store.runs(.init(cursor: "not a cursor!")))
        XCTAssertThrowsError(try store.runs(.init(limit: 0)))
    }

    func testRunDetailGroupsByPageThenCallSite() throws {
        try store.putRun(sampleRun())
        try store.addResults(
            ResultBatch(results: [
                failingResult(name: "a", page: "LoginPage", line: 40),
                failingResult(name: "b", page: "LoginPage", line: 40),
                failingResult(name: "c", page: "LoginPage", line: 12), failingResult(name: "d", page: "CatalogPage"),
                passingResult(name: "e", page: "SettingsPage"),
                TestResult(suite: "S", name: "f", status: .skipped, skipReason: "no network"),
            ]), toRun: "run-1")
        let detail = try XCTUnwrap(store.runDetail("run-1"))
        XCTAssertEqual(detail.pages.map(\.page), ["LoginPage", "CatalogPage", "SettingsPage", nil])
        let login = detail.pages[0]
        XCTAssertEqual(login.counts.failed, 3)
        XCTAssertEqual(login.callSites.map { $0.callSite?.line }, [12, 40])
        XCTAssertEqual(login.callSites[1].results.map(\.name), ["a", "b"])
        XCTAssertEqual(login.callSites[1].results[0].message, "Expected the error label")
        XCTAssertNil(try store.runDetail("missing"))
    }

    func testResultDetailHasFailuresTrailArtifactsAndLastPassingScreenshot() throws {
        let earlierPNG = TestPNG.make(width: 4, height: 3, red: 10)
        let failurePNG = TestPNG.make(width: 4, height: 3, red: 250)
        let earlierSHA = SHA256.hex(of: earlierPNG)
        let failureSHA = SHA256.hex(of: failurePNG)
        try store.putArtifact(earlierPNG, sha256: earlierSHA, mediaType: "image/png")
        try store.putRun(sampleRun(id: "old", startedAt: referenceDate.addingTimeInterval(-3_600)))
        var passing = passingResult(name: "testLogin", page: "LoginPage")
        passing.startedAt = referenceDate.addingTimeInterval(-3_500)
        passing.artifacts = [
            ArtifactRef(sha256: earlierSHA, kind: .screenshot, byteCount: earlierPNG.count, width: 4, height: 3)
        ]
        try store.addResults(ResultBatch(results: [passing]), toRun: "old")
        try store.putRun(sampleRun())
        try store.addResults(ResultBatch(results: [failingResult(screenshot: failureSHA)]), toRun: "run-1")
        let id = try XCTUnwrap(store.runDetail("run-1")?.pages.first?.callSites.first?.results.first?.id)
        let detail = try XCTUnwrap(store.resultDetail(id))
        XCTAssertEqual(detail.failures.first?.action, "tapLogin()")
        XCTAssertEqual(detail.elementFrame, Frame(x: 16, y: 300, width: 361, height: 50))
        XCTAssertEqual(detail.trail.count, 3)
        XCTAssertEqual(detail.pagesVisited, ["CatalogPage", "LoginPage"])
        XCTAssertEqual(detail.artifacts.first?.url, "/artifacts/\(failureSHA).png")
        XCTAssertEqual(detail.artifacts.first?.available, false, "uploaded later")
        XCTAssertEqual(detail.result.screenshot, failureSHA)
        XCTAssertEqual(detail.lastPassingScreenshot?.runId, "old")
        XCTAssertEqual(detail.lastPassingScreenshot?.artifact.sha256, earlierSHA)
        XCTAssertEqual(detail.run.run.id, "run-1")
        try store.putArtifact(failurePNG, sha256: failureSHA, mediaType: "image/png")
        XCTAssertEqual(try store.resultDetail(id)?.artifacts.first?.available, true)
        XCTAssertNil(try store.resultDetail(999_999))
    }

    func testTrailStepsKeepTheirTraceAndAFailureFindsTheNewestPassingTraceOnItsDeviceFirst() throws {
        let treeA = String(repeating: "a", count: 64)
        let treeB = String(repeating: "b", count: 64)
        func traced(_ status: TestStatus, tree: String, device: String? = nil, at seconds: Double) -> TestResult {
            var result = failingResult(name: "testTraced")
            result.status = status
            result.device = device
            result.startedAt = referenceDate.addingTimeInterval(seconds)
            if status == .passed { result.failures = [] }
            result.artifacts = [ArtifactRef(sha256: tree, kind: .elementTree, byteCount: 10)]
            result.trail[2].elementTree = tree
            result.trail[2].target = Frame(x: 16, y: 300, width: 361, height: 50)
            result.trail[2].duration = 0.75
            return result
        }
        try store.putRun(sampleRun())
        try store.addResults(
            ResultBatch(results: [
                traced(.passed, tree: treeA, at: 1),  // on the run's device (iPhone 15)
                traced(.passed, tree: treeB, device: "iPad", at: 2),  // newer, on another device
                passingResult(name: "testTraced"),  // newest passing, but without a trace
            ]), toRun: "run-1")
        try store.putRun(sampleRun(id: "run-2", startedAt: referenceDate.addingTimeInterval(60)))
        try store.addResults(ResultBatch(results: [traced(.failed, tree: treeB, at: 70)]), toRun: "run-2")
        let failingID = try XCTUnwrap(store.runDetail("run-2")?.pages.first?.callSites.first?.results.first?.id)
        let detail = try XCTUnwrap(store.resultDetail(failingID))
        XCTAssertEqual(detail.trail.map(\.elementTree), [nil, nil, treeB])
        XCTAssertEqual(detail.trail[2].target, Frame(x: 16, y: 300, width: 361, height: 50))
        XCTAssertEqual(detail.trail[2].duration, 0.75)
        XCTAssertEqual(detail.passingTrace?.runId, "run-1")
        XCTAssertEqual(detail.passingTrace?.device, "iPhone 15", "the same device before a newer one elsewhere")
        XCTAssertEqual(detail.passingTrace?.trail.last?.elementTree, treeA)

        // A step's tree must be one of the result's element_tree artifacts (so it is kept and collected with it).
        var orphan = traced(.failed, tree: treeA, at: 80)
        orphan.trail[2].elementTree = treeB
        XCTAssertThrowsError(try store.addResults(ResultBatch(results: [orphan]), toRun: "run-2")) {
            XCTAssertTrue("\($0)".contains("elementTree"), "\($0)")
        }
    }

    func testHistoryIsNewestFirstAcrossRunsWithCursor() throws {
        for index in 0..<3 {
            try store.putRun(
                sampleRun(id: "r\(index)", startedAt: referenceDate.addingTimeInterval(Double(index) * 100)))
            var result = passingResult(name: "testLogin")
            result.status = index == 1 ? .failed : .passed
            try store.addResults(ResultBatch(results: [result]), toRun: "r\(index)")
        }
        let testID = TestIdentity.id(project: "Shop", suite: "LoginTests", name: "testLogin", arguments: nil)
        let page = try XCTUnwrap(store.testHistory(testID, limit: 2))
        XCTAssertEqual(page.test.name, "testLogin")
        XCTAssertEqual(page.entries.map(\.result.runId), ["r2", "r1"])
        XCTAssertEqual(page.entries[1].result.status, .failed)
        XCTAssertEqual(page.entries[0].branch, "main")
        let rest = try XCTUnwrap(store.testHistory(testID, limit: 2, cursor: page.nextCursor))
        XCTAssertEqual(rest.entries.map(\.result.runId), ["r0"])
        XCTAssertNil(try store.testHistory(String(repeating: "0", count: 32)))
    }

    func testPagesCountFailuresInTheWindow() throws {
        try store.putRun(sampleRun())
        try store.addResults(
            ResultBatch(results: [
                failingResult(name: "a"), failingResult(name: "a", attempt: 2), failingResult(name: "b"),
                passingResult(name: "c"), failingResult(name: "d", page: "CatalogPage"),
            ]), toRun: "run-1")
        let list = try store.pages(project: "Shop", days: 14, now: referenceDate.addingTimeInterval(86_400))
        XCTAssertEqual(list.pages.map(\.page), ["LoginPage", "CatalogPage"])
        XCTAssertEqual(list.pages[0].resultCount, 4)
        XCTAssertEqual(list.pages[0].failureCount, 3)
        XCTAssertEqual(list.pages[0].failingTestCount, 2)
        XCTAssertEqual(try store.pages(days: 1, now: referenceDate.addingTimeInterval(3 * 86_400)).pages, [])
    }
}
