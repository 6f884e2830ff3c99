import FailscopeModel
@_spi(Engine) import FailscopeStore
import Foundation

/// Fills a store with a realistic UI-test history by direct SQL in big transactions, then the flaky
/// summary tables with `FailscopeStore.rebuildFlakySummaries` (the store's own definition of them, so the
/// benchmark measures the summaries ingest keeps; minutes at 10M results).
///
/// The world: `testCount` tests in suites of 20, each living on one of `pageCount` pages; runs are
/// shards of 1,000 tests on one of 4 devices; every commit runs all shards on one device; 4 commits
/// in 5 land on `main`, the rest on 30 feature branches; runs are spread evenly over `days` days
/// ending an hour ago. `flakyPercent` of the tests fail at random (5–30 %), on their page or, a third
/// of the time, on a second page, and a retry passes 70 % of the time; 0.3 % of the tests are broken
/// for a day or two (the newest ones until now); other tests fail once in 50,000 runs. Failing
/// results get a failure record with page and call site, their signature and a screenshot reference. Deterministic
/// for a seed. Trail steps are not generated (the analytics do not read them).
struct HistoryGenerator {
    var resultCount: Int
    var testCount = 10_000
    var pageCount = 40
    var days = 90
    var flakyPercent = 3.0
    var seed: UInt64 = 1
    var project = "Shop"
    var now = Date()

    static let devices = ["iPhone 15", "iPhone SE (3rd generation)", "iPad Pro 13-inch", "iPhone 15 Pro Max"]
    static let shardSize = 1_000
    static let pageNames = [
        "LoginPage", "CatalogPage", "ItemPage", "SettingsPage", "CartPage", "CheckoutPage", "PaymentPage", "AddressPage",
        "OrdersPage", "OrderDetailPage", "SearchPage", "SearchResultsPage", "FiltersPage", "ProfilePage", "EditProfilePage",
        "NotificationsPage", "OnboardingPage", "SignUpPage", "PasswordResetPage", "WishlistPage", "ReviewsPage",
        "WriteReviewPage", "HelpPage", "ChatPage", "StoreLocatorPage", "MapPage", "CouponsPage", "GiftCardsPage",
        "ReturnsPage", "TrackingPage", "LanguagePage", "PrivacyPage", "AboutPage", "HomePage", "CategoryPage",
        "BrandPage", "DealsPage", "ComparePage", "ScannerPage", "ReceiptPage",
    ]

    struct Summary: Sendable {
        var results = 0
        var failures = 0
        var runs = 0
        var flakyTests = 0
        var seconds = 0.0
        var summarySeconds = 0.0
    }

    private struct TestSpec {
        var id: String
        var suite: String
        var name: String
        var page: String
        var secondPage: String
        var failureRate: Double
        var brokenFrom: Int64
        var brokenUntil: Int64
        var line: Int
        /// The failure signature of its failures (docs/errors.md), as ingest stores it.
        var signature: FailureSignature
    }

    /// The message of every generated failure.
    static let failureMessage = "Timed out after 5.0 s waiting for the element to be hittable"

    static func signature(suite: String, line: Int) -> FailureSignature {
        FailureSignature(
            of: Failure(message: failureMessage, callSite: SourceLocation(file: "Tests/UITests/\(suite).swift", line: line)))
    }

    func generate(into store: FailscopeStore) throws -> Summary {
        var random = SplitMix64(seed: seed)
        let started = Date()
        let end = Int64((now.timeIntervalSince1970 - 3_600) * 1000)
        let start = end - Int64(days) * 86_400_000
        let pages = (0..<pageCount).map { $0 < Self.pageNames.count ? Self.pageNames[$0] : "Page\($0)" }
        var tests: [TestSpec] = []
        var summary = Summary()
        for index in 0..<testCount {
            let suite = "Suite\(index / 20)Tests"
            let name = "test\(index % 20)Case\(index)"
            var spec = TestSpec(
                id: TestIdentity.id(project: project, suite: suite, name: name, arguments: nil), suite: suite, name: name,
                page: pages[Int(random.next() % UInt64(pages.count))],
                secondPage: pages[Int(random.next() % UInt64(pages.count))], failureRate: 0.000_02, brokenFrom: 0,
                brokenUntil: 0, line: 20 + index % 60, signature: Self.signature(suite: suite, line: 20 + index % 60))
            let roll = random.unit()
            if roll < flakyPercent / 100 {
                spec.failureRate = 0.05 + 0.25 * random.unit()
                summary.flakyTests += 1
            } else if roll < flakyPercent / 100 + 0.003 {
                let length = Int64(1 + random.next() % 2) * 86_400_000
                spec.brokenFrom = random.next() % 3 == 0 ? end - length : start + Int64(random.unit() * Double(end - start))
                spec.brokenUntil = spec.brokenFrom + length
            }
            tests.append(spec)
        }
        let shards = max(1, (testCount + Self.shardSize - 1) / Self.shardSize)
        let runCount = max(1, resultCount / min(Self.shardSize, testCount))
        let spacing = Double(end - start) / Double(runCount)
        let nowMs = end

        try store.pool.write { db in
            try db.execute("PRAGMA cache_size = -1000000")
            try db.execute("PRAGMA temp_store = MEMORY")
            // Bulk load: drop the secondary indexes of the loaded tables, recreate them afterwards (a sort
            // instead of millions of random B-tree inserts); their definitions come from the schema itself.
            let indexes = try db.query(
                """
                SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
                    AND tbl_name IN ('results', 'failures', 'result_artifacts', 'runs')
                """
            ) { (name: $0.string(0), sql: $0.string(1)) }
            for index in indexes { try db.execute("DROP INDEX \(index.name)") }
            try db.transaction {
                for (index, spec) in tests.enumerated() {
                    try db.run(
                        "INSERT INTO tests (id, project, suite, name, arguments, first_seen_at, key) VALUES (?, ?, ?, ?, '', ?, ?)",
                        [spec.id, project, spec.suite, spec.name, start, index + 1])
                    try db.run(
                        "INSERT INTO failure_signatures (id, message, location) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
                        [spec.signature.id, spec.signature.message, spec.signature.location])
                }
            }
            var runIndex = 0
            while runIndex < runCount {
                try db.transaction {
                    let stop = min(runCount, runIndex + 100)
                    while runIndex < stop {
                        try insertRun(
                            db, index: runIndex, shards: shards, tests: tests, startedAt: start + Int64(Double(runIndex) * spacing),
                            now: nowMs, random: &random, summary: &summary)
                        runIndex += 1
                    }
                }
            }
            for index in indexes { try db.execute(index.sql) }
        }
        let summaryStarted = Date()
        try store.rebuildFlakySummaries()
        summary.summarySeconds = Date().timeIntervalSince(summaryStarted)
        summary.runs = runCount
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    private func insertRun(
        _ db: Database, index: Int, shards: Int, tests: [TestSpec], startedAt: Int64, now: Int64,
        random: inout SplitMix64, summary: inout Summary
    ) throws {
        let commitIndex = index / shards
        let shard = index % shards
        let device = Self.devices[commitIndex % Self.devices.count]
        let branch = commitIndex % 5 == 4 ? "feature/\(commitIndex / 5 % 30)" : "main"
        var commitRandom = SplitMix64(seed: UInt64(commitIndex) &+ seed)
        let commit = Self.hex(commitRandom.next()) + Self.hex(UInt64(commitIndex))
        let runID = "gen-\(index)"
        var counts = (passed: 0, failed: 0, failing: 0)
        var testIndex = shard
        var rows: [(test: Int, spec: TestSpec, attempt: Int, failed: Bool, onSecondPage: Bool)] = []
        while testIndex < tests.count {
            let spec = tests[testIndex]
            let test = testIndex
            testIndex += shards
            let broken = startedAt >= spec.brokenFrom && startedAt < spec.brokenUntil
            let fails = broken || random.unit() < spec.failureRate
            let secondPage = fails && !broken && spec.failureRate > 0.001 && random.next() % 3 == 0
            rows.append((test, spec, 1, fails, secondPage))
            guard fails else { continue }
            let retryFails = broken || (spec.failureRate > 0.001 ? random.unit() < 0.3 : false)
            rows.append((test, spec, 2, retryFails, secondPage && retryFails))
            if retryFails { counts.failing += 1 }
        }
        for row in rows { if row.failed { counts.failed += 1 } else { counts.passed += 1 } }
        try db.run(
            """
            INSERT INTO runs (id, project, branch, commit_sha, device, os_version, ci_provider, source, started_at,
                finished_at, created_at, updated_at, status, result_count, passed_count, failed_count, failing_test_count)
            VALUES (?, ?, ?, ?, ?, '17.5', 'generator', 'reporter', ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                runID, project, branch, commit, device, startedAt, startedAt + 600_000, now, now,
                counts.failing > 0 ? "failed" : "passed", rows.count, counts.passed, counts.failed, counts.failing,
            ])
        for row in rows {
            let spec = row.spec
            let page = row.onSecondPage ? spec.secondPage : spec.page
            let key = "\(spec.suite)\u{1F}\(spec.name)\u{1F}\u{1F}\u{1F}\(row.attempt)"
            let file = "Tests/UITests/\(spec.suite).swift"
            let resultID = try db.queryFirst(
                """
                INSERT INTO results (run_id, result_key, test_id, project, branch, commit_sha, device, page,
                    call_site_file, call_site_line, attempt, status, ran_at, duration, failure_signature)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [
                    runID, key, spec.id, project, branch, commit, device, page, file, spec.line, row.attempt,
                    row.failed ? "failed" : "passed", startedAt, 2.5, row.failed ? spec.signature.id : nil,
                ], row: { $0.int64(0) })
            summary.results += 1
            guard row.failed else { continue }
            summary.failures += 1
            try db.run(
                """
                INSERT INTO failures (result_id, position, message, page, action, call_site_file, call_site_line)
                VALUES (?, 0, ?, ?, 'tap()', ?, ?)
                """, [resultID, Self.failureMessage, page, file, spec.line])
            let sha = Self.hex(random.next()) + Self.hex(random.next()) + Self.hex(random.next()) + Self.hex(random.next())
            try db.run(
                """
                INSERT INTO result_artifacts (result_id, position, sha256, kind, byte_count, width, height)
                VALUES (?, 0, ?, 'screenshot', 180000, 1179, 2556)
                """, [resultID, sha])
        }
    }
}

extension HistoryGenerator {
    private static let digits = Array("0123456789abcdef".utf8)

    /// 16 lowercase hexadecimal digits.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = digits[Int((value >> (60 - 4 * UInt64(index))) & 0xF)] }
            return 16
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny deterministic generator for reproducible histories.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
