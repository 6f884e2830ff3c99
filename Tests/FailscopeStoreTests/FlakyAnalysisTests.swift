import FailscopeModel
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// Each rule of docs/flaky.md against histories ingested through the store's real ingest path, with
/// the exact sets the rules must produce.
final class FlakyAnalysisTests: StoreTestCase {
    private var store: FailscopeStore!
    private var runNumber = 0
    /// 2025-11-29 07:06:40 UTC; the 14-day window starts at 2025-11-16 00:00 UTC.
    private let now = referenceDate

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    // MARK: Helpers

    private func result(
        _ name: String, _ status: TestStatus, page: String? = "LoginPage", attempt: Int = 1, suite: String = "LoginTests",
        device: String? = nil, line: Int = 40, screenshot: String? = nil
    ) -> TestResult {
        let callSite = SourceLocation(file: "/src/\(suite).swift", line: line)
        let failures =
            status == .failed || status == .error
            ? [Failure(message: "Timed out waiting for the button", page: page, action: "tap()", callSite: callSite)] : []
        return TestResult(
            suite: suite, name: name, device: device, attempt: attempt, status: status, failures: failures,
            trail: page.map { [TrailStep(page: $0, action: "tap()", callSite: callSite)] } ?? [],
            artifacts: screenshot.map { [ArtifactRef(sha256: $0, kind: .screenshot, byteCount: 10)] } ?? [])
    }

    /// Ingests one run on `commit` that started `hoursAgo` hours before `now`.
    @discardableResult
    private func ingest(
        commit: String?, hoursAgo: Double, branch: String? = "main", device: String? = "iPhone 15",
        project: String = "Shop", _ results: [TestResult]
    ) throws -> String {
        runNumber += 1
        let id = "run-\(runNumber)"
        try store.putRun(
            Run(
                id: id, project: project, branch: branch, commit: commit, device: device,
                startedAt: now.addingTimeInterval(-hoursAgo * 3_600)))
        try store.addResults(ResultBatch(results: results), toRun: id)
        return id
    }

    /// One run per character of `pattern` (P pass, F fail, S skipped), oldest first, each on its own
    /// commit, `spacing` hours apart, the newest `newestHoursAgo` hours ago.
    private func ingestSequence(
        _ name: String, _ pattern: String, newestHoursAgo: Double = 1, spacing: Double = 4, page: String = "LoginPage",
        device: String? = "iPhone 15"
    ) throws {
        let characters = Array(pattern)
        for (index, character) in characters.enumerated() {
            let status: TestStatus = character == "P" ? .passed : character == "F" ? .failed : .skipped
            try ingest(
                commit: "\(name)-c\(index)", hoursAgo: newestHoursAgo + Double(characters.count - 1 - index) * spacing,
                device: device, [result(name, status, page: page)])
        }
    }

    private func flaky(_ query: FailscopeStore.FlakyQuery = .init()) throws -> FlakyReport {
        var query = query
        query.now = now
        return try store.flakyTests(query)
    }

    private func flakyNames(_ query: FailscopeStore.FlakyQuery = .init()) throws -> Set<String> {
        Set(try flaky(query).flaky.map(\.name))
    }

    // MARK: Same-input contradiction

    func testPassAndFailOnOneCommitThroughARetryIsFlaky() throws {
        try ingest(
            commit: "c1", hoursAgo: 2,
            [
                result("testRetried", .failed, attempt: 1), result("testRetried", .passed, attempt: 2),
                result("testAlwaysPasses", .passed), result("testFailedOnce", .failed),
            ])
        let report = try flaky()
        XCTAssertEqual(Set(report.flaky.map(\.name)), ["testRetried"])
        let test = try XCTUnwrap(report.flaky.first)
        XCTAssertEqual(test.reasons, [.contradiction])
        XCTAssertEqual(test.contradictingCommits.map(\.commit), ["c1"])
        XCTAssertEqual(test.contradictingCommits.first?.passes, 1)
        XCTAssertEqual(test.contradictingCommits.first?.fails, 1)
        XCTAssertEqual(test.passCount, 1)
        XCTAssertEqual(test.failCount, 1)
        XCTAssertNil(test.flipRate, "2 results are fewer than the minimum of 10")
        XCTAssertEqual(report.broken, [], "one failing result on the newest commit is not broken (needs 2)")
    }

    func testPassAndFailOnOneCommitAcrossTwoRunsIsFlakyButNotAcrossCommits() throws {
        try ingest(commit: "c1", hoursAgo: 5, [result("testAcrossRuns", .passed), result("testNewCommit", .passed)])
        try ingest(commit: "c1", hoursAgo: 3, [result("testAcrossRuns", .failed)])
        try ingest(commit: "c2", hoursAgo: 1, [result("testNewCommit", .failed)])
        let report = try flaky()
        XCTAssertEqual(Set(report.flaky.map(\.name)), ["testAcrossRuns"])
        XCTAssertEqual(report.flaky.first?.contradictingCommitCount, 1)
        XCTAssertEqual(report.flaky.first?.branch, "main")
        // Results without a commit are never the same input.
        try ingest(commit: nil, hoursAgo: 4, [result("testNoCommit", .passed)])
        try ingest(commit: nil, hoursAgo: 2, [result("testNoCommit", .failed)])
        XCTAssertEqual(try flakyNames(), ["testAcrossRuns"])
    }

    // MARK: Flip rate

    func testFlipRateAtAndBelowTheThreshold() throws {
        // 3 flips in 30 results: 3/29 = 0.103 >= 0.1. 2 flips: 2/29 = 0.069.
        try ingestSequence("testThreeFlips", String(repeating: "P", count: 15) + "F" + String(repeating: "P", count: 13) + "F")
        try ingestSequence("testTwoFlips", String(repeating: "P", count: 15) + "F" + String(repeating: "P", count: 14))
        let report = try flaky()
        XCTAssertEqual(Set(report.flaky.map(\.name)), ["testThreeFlips"])
        let test = try XCTUnwrap(report.flaky.first)
        XCTAssertEqual(test.reasons, [.flipRate])
        XCTAssertEqual(test.flips, 3)
        XCTAssertEqual(test.sampleCount, 30)
        XCTAssertEqual(try XCTUnwrap(test.flipRate), 3.0 / 29.0, accuracy: 1e-12)
        XCTAssertEqual(test.contradictingCommits, [])
        XCTAssertEqual(test.passCount, 28)
        XCTAssertEqual(test.failCount, 2)
        // A lower threshold catches the two-flip test too.
        var policy = FlakyPolicy.standard
        policy.flipRateThreshold = 0.05
        XCTAssertEqual(try flakyNames(.init(policy: policy)), ["testThreeFlips", "testTwoFlips"])
    }

    func testFlipRateCountsOnlyTheNewestNResults() throws {
        // 10 alternating results, then 30 with 2 flips: over the newest 30 the rate is 2/29 (not flaky);
        // over all 40 it would be 12/39. Skipped results are neither and do not count.
        let pattern =
            "PFPFPFPFPF" + String(repeating: "P", count: 14) + "F" + "S" + String(repeating: "P", count: 15)
        try ingestSequence("testOldFlips", pattern, spacing: 6)
        XCTAssertEqual(try flakyNames(), [])
        var policy = FlakyPolicy.standard
        policy.recentResults = 40
        policy.recoveryPasses = 40
        let report = try flaky(.init(policy: policy))
        XCTAssertEqual(report.flaky.map(\.name), ["testOldFlips"])
        XCTAssertEqual(report.flaky.first?.flips, 12)
        XCTAssertEqual(report.flaky.first?.sampleCount, 40)
    }

    func testTooFewSamplesAreNotFlaky() throws {
        try ingestSequence("testNineAlternating", "PFPFPFPFP")
        try ingestSequence("testTenAlternating", "PFPFPFPFPF")
        let report = try flaky()
        XCTAssertEqual(Set(report.flaky.map(\.name)), ["testTenAlternating"])
        XCTAssertEqual(report.flaky.first?.flipRate, 1.0)
        var policy = FlakyPolicy.standard
        policy.minimumResults = 9
        XCTAssertEqual(try flakyNames(.init(policy: policy)), ["testNineAlternating", "testTenAlternating"])
    }

    func testFlipRateUsesOnlyTheWindow() throws {
        // 12 alternating results 20+ days ago: outside a 14-day window, inside a 30-day one.
        try ingestSequence("testLongAgo", "PFPFPFPFPFPF", newestHoursAgo: 20 * 24)
        XCTAssertEqual(try flakyNames(), [])
        XCTAssertEqual(try flakyNames(.init(days: 30)), ["testLongAgo"])
    }

    // MARK: Broken

    func testBrokenIsListedApartAndNeverFlaky() throws {
        // Flips and an old contradiction, then two failing results on the newest commit.
        try ingestSequence("testBroken", "PFPFPFPFPFPF", newestHoursAgo: 10)
        try ingest(commit: "old", hoursAgo: 9, [result("testBroken", .failed), result("testBroken", .passed, attempt: 2)])
        try ingest(
            commit: "new", hoursAgo: 2,
            [result("testBroken", .failed, attempt: 1), result("testBroken", .failed, attempt: 2)])
        // The same history with only one failing result on the newest commit stays flaky.
        try ingestSequence("testOneFailOnNewest", "PFPFPFPFPFPF", newestHoursAgo: 10)
        try ingest(commit: "new2", hoursAgo: 2, [result("testOneFailOnNewest", .failed)])
        // A newest commit with a failure and a pass is a contradiction, not broken.
        try ingest(commit: "mixed", hoursAgo: 3, [result("testMixedNewest", .failed)])
        try ingest(commit: "mixed", hoursAgo: 2, [result("testMixedNewest", .failed)])
        try ingest(commit: "mixed", hoursAgo: 1, [result("testMixedNewest", .passed)])
        let report = try flaky()
        XCTAssertEqual(Set(report.flaky.map(\.name)), ["testOneFailOnNewest", "testMixedNewest"])
        XCTAssertEqual(report.broken.map(\.name), ["testBroken"])
        XCTAssertEqual(report.broken.first?.commit, "new")
        XCTAssertEqual(report.broken.first?.failCount, 2)
        XCTAssertNotNil(report.broken.first?.newestFailure)
        // Broken needs 3 with brokenMinimum 3: then the flips make it flaky again.
        var policy = FlakyPolicy.standard
        policy.brokenMinimum = 3
        let lenient = try flaky(.init(policy: policy))
        XCTAssertEqual(lenient.broken, [])
        XCTAssertEqual(Set(lenient.flaky.map(\.name)), ["testBroken", "testOneFailOnNewest", "testMixedNewest"])
    }

    // MARK: Recovery

    func testRecoveryAfterConsecutivePasses() throws {
        // A contradiction (a pass, then a fail on commit x), then 20 passes (recovered) or 19 (still flaky).
        for (name, passes) in [("testRecovered", 20), ("testAlmostRecovered", 19)] {
            try ingest(commit: "\(name)-x", hoursAgo: 101, [result(name, .passed)])
            try ingest(commit: "\(name)-x", hoursAgo: 100, [result(name, .failed)])
            try ingestSequence(name, String(repeating: "P", count: passes), newestHoursAgo: 1, spacing: 3)
        }
        XCTAssertEqual(try flakyNames(), ["testAlmostRecovered"])
        var policy = FlakyPolicy.standard
        policy.recoveryPasses = 21
        XCTAssertEqual(try flakyNames(.init(policy: policy)), ["testRecovered", "testAlmostRecovered"])
    }

    func testNoContradictionInsideTheWindowIsNoLongerFlaky() throws {
        try ingest(commit: "c1", hoursAgo: 20 * 24, [result("testOldRetry", .failed), result("testOldRetry", .passed, attempt: 2)])
        try ingest(commit: "c2", hoursAgo: 2, [result("testOldRetry", .failed)])
        XCTAssertEqual(try flakyNames(), [], "the contradiction is 20 days old")
        XCTAssertEqual(try flakyNames(.init(days: 21)), ["testOldRetry"])
    }

    // MARK: By page
    func testFailuresAreAttributedToEachPageTheyHappenedOn() throws {
        // testTwoPages: flaky (retries), failing on LoginPage twice and on CatalogPage once.
        try ingest(
            commit: "a", hoursAgo: 30,
            [
                result("testTwoPages", .failed, page: "LoginPage", line: 12, screenshot: String(repeating: "a", count: 64)),
                result("testTwoPages", .passed, attempt: 2),
                result("testLoginOnly", .failed, page: "LoginPage", suite: "CheckoutTests"),
                result("testLoginOnly", .passed, attempt: 2, suite: "CheckoutTests"),
                result("testConsistent", .failed, page: "CatalogPage"),
            ])
        try ingest(
            commit: "b", hoursAgo: 20,
            [
                result("testTwoPages", .failed, page: "LoginPage", line: 12),
                result("testTwoPages", .passed, attempt: 2),
                result("testConsistent", .failed, page: "CatalogPage"),
                result("testImported", .failed, page: nil, suite: "ImportedTests"),
                result("testImported", .passed, page: nil, attempt: 2, suite: "ImportedTests"),
            ])
        try ingest(
            commit: "c", hoursAgo: 10,
            [
                result("testTwoPages", .failed, page: "CatalogPage", line: 30, screenshot: String(repeating: "c", count: 64)),
                result("testTwoPages", .passed, attempt: 2),
                result("testConsistent", .failed, page: "CatalogPage"),
                result("testConsistent", .passed, page: "SettingsPage", attempt: 2, suite: "OtherTests"),
            ])
        let pages = try store.flakyPages(.init(now: now))
        let byPage = Dictionary(uniqueKeysWithValues: pages.pages.map { ("\($0.page)|\($0.suite ?? "")", $0) })
        // Ranked by flaky failures, then failures: CatalogPage (1, 4) before "(no page)" (1, 1).
        XCTAssertEqual(pages.pages.map(\.page), ["LoginPage", "CatalogPage", "(no page)", "SettingsPage"])
        let login = try XCTUnwrap(byPage["LoginPage|"])
        XCTAssertEqual(login.flakyTestCount, 2)
        XCTAssertEqual(login.flakyFailureCount, 3)
        XCTAssertEqual(login.failureCount, 3)
        XCTAssertEqual(login.failingTestCount, 2)
        XCTAssertEqual(login.devices, [DeviceCount(device: "iPhone 15", failureCount: 3)])
        XCTAssertEqual(login.lastFlakyFailureAt, now.addingTimeInterval(-20 * 3_600))
        let catalog = try XCTUnwrap(byPage["CatalogPage|"])
        XCTAssertEqual(catalog.flakyTestCount, 1, "testConsistent is not flaky (a different commit each time)")
        XCTAssertEqual(catalog.flakyFailureCount, 1)
        XCTAssertEqual(catalog.failureCount, 4)
        XCTAssertEqual(catalog.failingTestCount, 2)
        let imported = try XCTUnwrap(byPage["(no page)|ImportedTests"])
        XCTAssertEqual(imported.flakyTestCount, 1)
        XCTAssertEqual(imported.flakyFailureCount, 1)
        XCTAssertEqual(imported.resultCount, 2)

        let onCatalog = try flaky(.init(page: "CatalogPage"))
        XCTAssertEqual(onCatalog.flaky.map(\.name), ["testTwoPages"])
        let test = try XCTUnwrap(onCatalog.flaky.first)
        XCTAssertEqual(test.pages.map(\.page), ["LoginPage", "CatalogPage"])
        XCTAssertEqual(test.pages.map(\.failureCount), [2, 1])
        XCTAssertEqual(test.failCount, 3)
        XCTAssertEqual(test.passCount, 3)
        XCTAssertEqual(test.contradictingCommits.map(\.commit), ["c", "b", "a"])
        XCTAssertEqual(test.firstFlakyFailureAt, now.addingTimeInterval(-30 * 3_600))
        XCTAssertEqual(test.lastFlakyFailureAt, now.addingTimeInterval(-10 * 3_600))
        XCTAssertEqual(
            test.callSites.map { "\($0.page):\($0.line)x\($0.totalFailureCount)" }, ["CatalogPage:30x1", "LoginPage:12x2"])
        XCTAssertEqual(test.newestFailure?.screenshot, "/artifacts/\(String(repeating: "c", count: 64)).png")
        // Asked for LoginPage, the newest failure is the newest one there (commit b, no screenshot).
        let onLogin = try flaky(.init(page: "LoginPage"))
        XCTAssertEqual(Set(onLogin.flaky.map(\.name)), ["testTwoPages", "testLoginOnly"])
        XCTAssertEqual(onLogin.flaky.first { $0.name == "testTwoPages" }?.newestFailure?.screenshot, nil)
        XCTAssertEqual(try flaky(.init(page: "(no page)")).flaky.map(\.name), ["testImported"])
        XCTAssertEqual(try flaky(.init(page: "(no page)", suite: "LoginTests")).flaky, [])
        XCTAssertEqual(try flaky(.init(page: "NoSuchPage")).flaky, [])
        XCTAssertEqual(try flaky(.init(project: "Bank")).flaky, [])
    }

    // MARK: Device

    func testDeviceFilter() throws {
        // Retries contradict on iPad only; on iPhone the test always passes.
        for (index, hoursAgo) in [30.0, 20, 10].enumerated() {
            try ingest(
                commit: "d\(index)", hoursAgo: hoursAgo, device: "iPad",
                [result("testIPadOnly", .failed), result("testIPadOnly", .passed, attempt: 2)])
            try ingest(commit: "d\(index)", hoursAgo: hoursAgo, device: "iPhone 15", [result("testIPadOnly", .passed)])
        }
        // Passes on iPhone, fails on iPad (the result's own device), same commit: a contradiction
        // across devices, none on either device alone.
        try ingest(
            commit: "e", hoursAgo: 5, device: "iPhone 15",
            [result("testByDevice", .passed), result("testByDevice", .failed, device: "iPad")])
        XCTAssertEqual(try flakyNames(), ["testIPadOnly", "testByDevice"])
        XCTAssertEqual(try flakyNames(.init(device: "iPad")), ["testIPadOnly"])
        XCTAssertEqual(try flakyNames(.init(device: "iPhone 15")), [])
        XCTAssertEqual(try flakyNames(.init(device: "Pixel")), [])
        let iPad = try flaky(.init(device: "iPad")).flaky.first
        XCTAssertEqual(iPad?.passCount, 3)
        XCTAssertEqual(iPad?.failCount, 3)
        XCTAssertEqual(iPad?.devices, [DeviceCount(device: "iPad", failureCount: 3)])
        let all = try flaky().flaky.first { $0.name == "testIPadOnly" }
        XCTAssertEqual(all?.passCount, 6)
        XCTAssertEqual(all?.failCount, 3)
        let pages = try store.flakyPages(.init(now: now))
        XCTAssertEqual(pages.pages.first?.devices, [DeviceCount(device: "iPad", failureCount: 4)])
        let iPhonePages = try store.flakyPages(.init(device: "iPhone 15", now: now))
        XCTAssertEqual(iPhonePages.pages.first?.flakyFailureCount, 0)
        XCTAssertEqual(iPhonePages.pages.first?.failureCount, 4, "the page counts ignore the device")
    }

    func testPassAndFailCountsAreTheWindowsOnlyAlsoAfterALateUpload() throws {
        // 20 and 16 days ago: outside the 14-day window. Inside: a retry contradiction 3 days ago, passes on
        // iPad 2 days ago, and a run from 10 days ago uploaded last (older than the test's newest result).
        try ingest(commit: "old", hoursAgo: 20 * 24, [result("testCounted", .failed), result("testCounted", .passed, attempt: 2)])
        try ingest(commit: "old2", hoursAgo: 16 * 24, device: "iPad", [result("testCounted", .passed)])
        try ingest(commit: "c1", hoursAgo: 3 * 24, [result("testCounted", .failed), result("testCounted", .passed, attempt: 2)])
        try ingest(
            commit: "c2", hoursAgo: 2 * 24, device: "iPad",
            [result("testCounted", .passed), result("testCounted", .skipped, attempt: 2)])
        try ingest(commit: "c0", hoursAgo: 10 * 24, [result("testCounted", .failed), result("testCounted", .error, attempt: 2)])
        let all = try XCTUnwrap(flaky().flaky.first)
        XCTAssertEqual([all.passCount, all.failCount], [2, 3], "c1 1+1, c2 1 pass, c0 2 failures; skipped counts as neither")
        let iPhone = try XCTUnwrap(flaky(.init(device: "iPhone 15")).flaky.first)
        XCTAssertEqual([iPhone.passCount, iPhone.failCount], [1, 3])
        let wide = try XCTUnwrap(flaky(.init(days: 30)).flaky.first)
        XCTAssertEqual([wide.passCount, wide.failCount], [4, 4], "30 days take in the old runs")
    }

    func testDeviceBreakdownCountsOnlyTheWindowsFailures() throws {
        // The device-summed page rows pack per-device counts (JSON): names that need escaping, a device
        // whose failures are all before the window, and one failing both before and inside it.
        let quoted = "Sim \"A\" \\ 1 <b>"
        try ingest(
            commit: "old", hoursAgo: 20 * 24, device: "Pixel",
            [result("testSpread", .failed), result("testSpread", .passed, attempt: 2)])
        try ingest(commit: "old", hoursAgo: 20 * 24, device: "iPad", [result("testSpread", .failed)])
        try ingest(
            commit: "new", hoursAgo: 30, device: quoted,
            [result("testSpread", .failed), result("testSpread", .passed, attempt: 2)])
        try ingest(commit: "new", hoursAgo: 20, device: "iPad", [result("testSpread", .failed)])
        try ingest(commit: "new", hoursAgo: 10, device: "iPad", [result("testSpread", .error, page: "CatalogPage")])
        let expected = [DeviceCount(device: "iPad", failureCount: 2), DeviceCount(device: quoted, failureCount: 1)]
        let test = try XCTUnwrap(try flaky().flaky.first)
        XCTAssertEqual(test.name, "testSpread")
        XCTAssertEqual(test.devices, expected)
        XCTAssertEqual(test.failCount, 3)
        XCTAssertEqual(test.pages.map { "\($0.page):\($0.failureCount)" }, ["LoginPage:2", "CatalogPage:1"])
        XCTAssertEqual(test.firstFlakyFailureAt, now.addingTimeInterval(-30 * 3_600))
        let pages = try store.flakyPages(.init(now: now))
        let login = try XCTUnwrap(pages.pages.first { $0.page == "LoginPage" })
        XCTAssertEqual(login.devices, [DeviceCount(device: quoted, failureCount: 1), DeviceCount(device: "iPad", failureCount: 1)])
        XCTAssertEqual(login.flakyFailureCount, 2)
        XCTAssertEqual(login.flakyTestCount, 1)
        XCTAssertEqual(pages.pages.first { $0.page == "CatalogPage" }?.devices, [DeviceCount(device: "iPad", failureCount: 1)])
        // With the device filter, only that device's rows.
        let onQuoted = try flaky(.init(device: quoted)).flaky.first
        XCTAssertEqual(onQuoted?.devices, [DeviceCount(device: quoted, failureCount: 1)])
        let quotedPages = try store.flakyPages(.init(device: quoted, now: now))
        XCTAssertEqual(quotedPages.pages.first { $0.page == "LoginPage" }?.flakyFailureCount, 1)
        XCTAssertEqual(try flakyNames(.init(device: "Pixel")), [], "Pixel failed only before the window")
    }

    func testContradictingCommitsListTheNewestFiveAndCountThemAll() throws {
        for index in 0..<25 {
            try ingest(
                commit: "k\(index)", hoursAgo: Double(100 - index),
                [result("testRetries", .failed), result("testRetries", .passed, attempt: 2)])
        }
        let test = try XCTUnwrap(try flaky().flaky.first)
        XCTAssertEqual(test.contradictingCommitCount, 25)
        XCTAssertEqual(test.contradictingCommits.map(\.commit), ["k24", "k23", "k22", "k21", "k20"])
        XCTAssertEqual(test.passCount, 25)
        XCTAssertEqual(test.failCount, 25)
    }

    func testDeviceCountsParserReadsWhatEachEngineWrites() throws {
        let names = ["", "iPad", "a\"b", "back\\slash", "tab\there", "ünï", "emoji 😀"]
        // As each engine's flaky_summaries.sql writes the per-device objects.
        let objectSQL =
            engine == .sqlite
            ? "SELECT json_group_object(value, key + 1) FROM (SELECT key, value FROM json_each(?) ORDER BY value)"
            : """
            SELECT '{' || string_agg(to_json(j.value)::text || ':' || j.key, ',' ORDER BY j.value COLLATE "C") || '}'
            FROM json_array_elements_text(CAST(? AS json)) WITH ORDINALITY AS j (value, key)
            """
        let json = try store.read { db in
            try db.scalar(
                objectSQL,
                [String(decoding: try JSONEncoder().encode(names), as: UTF8.self)]
            ).string
        }
        let parsed = FlakyAnalysis.deviceCounts(json)
        XCTAssertEqual(parsed.map(\.device), names.sorted { FlakyAnalysis.precedes($0, $1) })
        XCTAssertEqual(parsed.map(\.count), parsed.map { names.firstIndex(of: $0.device)! + 1 })
        XCTAssertEqual(FlakyAnalysis.deviceCounts(#"{"iPad":3,"iPhone 15":12}"#).map(\.count), [3, 12])
        func window(_ now: String?, _ before: String?) -> [String] {
            FlakyAnalysis.windowCounts(now: now, before: before).map { "\($0.device)=\($0.count)" }.sorted()
        }
        XCTAssertEqual(window(#"{"iPad":3,"iPhone 15":12}"#, nil), ["iPad=3", "iPhone 15=12"])
        XCTAssertEqual(window(#"{"":2,"iPad":3,"iPhone 15":12}"#, #"{"iPad":3,"iPhone 15":10}"#), ["=2", "iPhone 15=2"])
        XCTAssertEqual(window(#"{"a\"b":4,"iPad":1}"#, #"{"a\"b":1}"#), ["a\"b=3", "iPad=1"], "escaped keys")
        XCTAssertEqual(window(nil, #"{"iPad":3}"#), [])
        XCTAssertTrue(FlakyAnalysis.deviceCounts("not json").isEmpty)
        XCTAssertTrue(FlakyAnalysis.deviceCounts(nil).isEmpty)
    }

    // MARK: Branches and validation

    func testRulesApplyPerBranch() throws {
        try ingestSequence("testMainFlips", "PFPFPFPFPFPF")
        try ingest(commit: "f1", hoursAgo: 3, branch: "feature", [result("testFeature", .failed)])
        try ingest(commit: "f1", hoursAgo: 2, branch: "feature", [result("testFeature", .passed)])
        XCTAssertEqual(try flakyNames(.init(branch: "main")), ["testMainFlips"])
        XCTAssertEqual(try flakyNames(.init(branch: "feature")), ["testFeature"])
        XCTAssertEqual(try flaky().flaky.map { "\($0.name)@\($0.branch)" }.sorted(), ["testFeature@feature", "testMainFlips@main"])
        XCTAssertEqual(try flakyNames(.init(branch: "nope")), [])
    }

    func testInvalidParametersAreRefused() throws {
        XCTAssertThrowsError(try flaky(.init(days: 0)))
        XCTAssertThrowsError(try flaky(.init(days: 366)))
        var policy = FlakyPolicy.standard
        policy.recentResults = 65
        XCTAssertThrowsError(try flaky(.init(policy: policy)))
        policy = .standard
        policy.flipRateThreshold = .nan
        XCTAssertThrowsError(try flaky(.init(policy: policy)))
        XCTAssertThrowsError(try store.flakyPages(.init(days: -1)))
    }
}

/// `FlakyReader`: the same answers from a folder opened read-only, beside the open store.
final class FlakyReaderTests: StoreTestCase {
    func testReadOnlyReaderAnswersLikeTheStore() throws {
        let directory = try makeTemporaryDirectory()
        let database = try makeDatabase(directory: directory)
        let store = try FailscopeStore(directory: directory, database: database)
        defer { store.close() }
        try store.putRun(sampleRun(startedAt: referenceDate.addingTimeInterval(-3_600)))
        try store.addResults(
            ResultBatch(results: [failingResult(name: "testRetry"), failingResult(name: "testRetry", attempt: 2)]),
            toRun: "run-1")
        try store.putRun(sampleRun(id: "run-2", startedAt: referenceDate.addingTimeInterval(-1_800)))
        try store.addResults(ResultBatch(results: [passingResult(name: "testRetry")]), toRun: "run-2")
        let query = FailscopeStore.FlakyQuery(now: referenceDate)
        let reader = try FlakyReader(directory: directory, database: database)
        XCTAssertEqual(try reader.flakyTests(query), try store.flakyTests(query))
        XCTAssertEqual(try reader.flakyTests(query).flaky.map(\.name), ["testRetry"])
        XCTAssertEqual(try reader.flakyPages(query), try store.flakyPages(query))
        XCTAssertThrowsError(try FlakyReader(directory: directory.appendingPathComponent("missing")))
    }

    func testReaderRefusesADatabaseBeforeTheCurrentSummaries() throws {
        // A folder migrated by an older binary (here: none of the migrations; later, one before the newest):
        // the reader does not migrate, so it says what to run.
        for applied in [0] {
            let directory = try makeTemporaryDirectory()
            let database = try makeDatabase(directory: directory)
            let store = try FailscopeStore(
                directory: directory, database: database,
                migrator: Migrator(migrations: Array(Migration.embedded.prefix(applied))))
            store.close()
            XCTAssertThrowsError(try FlakyReader(directory: directory, database: database)) { error in
                XCTAssertTrue("\(error)".contains("failscope migrate"), "\(error)")
            }
        }
    }
}
