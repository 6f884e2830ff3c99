import FailscopeModel
import Foundation

/// The reads behind `flakyTests` and `flakyPages`, inside one snapshot: candidates are the
/// (test, branch) pairs with a failure in the window (`flaky_test_pages`), each classified from its
/// newest results (`flaky_outcomes`) and contradicting commits (`flaky_commits`); counts in the window
/// are differences of lifetime and cumulative rows (`flaky_outcomes` and `flaky_test_days`,
/// `flaky_page_days`). Every read is an index range bounded by the window or by a constant, never
/// the window's results.
struct FlakyAnalysis {
    let db: any SQLConnection
    let window: FlakyWindow

    /// One (test, branch, device key, page) with a failure in the window: device `*` (all devices
    /// together) without a device filter, else the filter's device.
    struct PageRow {
        var testID: String
        var branch: String
        var device: String
        /// `""`: no page.
        var page: String
        /// The test's suite when `page` is `""` (else `""`: not read).
        var suite: String
        var lastFailAt: Int64
        var lastResultID: Int64
        /// Failures in the window.
        var windowFailures: Int
        /// The first failure in the window.
        var windowFirstFailAt: Int64?
        /// Failures in the window per device (devices without one left out).
        var deviceFailures: [(device: String, count: Int)] = []

        var pageKey: PageKey { PageKey(page: page, suite: page.isEmpty ? suite : "") }
    }

    /// The differences `now - before` of two `devices` columns (cumulative failures per device), the
    /// positive ones. Compares the key bytes in place (hundreds of rows per page list); keys with JSON
    /// escapes take the general path.
    static func windowCounts(now: String?, before: String?) -> [(device: String, count: Int)] {
        guard var now else { return [] }
        var before = before ?? "{}"
        let fast = now.withUTF8 { nowBytes in
            before.withUTF8 { beforeBytes -> [(device: String, count: Int)]? in
                guard let current = DeviceCountsParser.entries(nowBytes),
                    let earlier = DeviceCountsParser.entries(beforeBytes)
                else { return nil }
                var counts: [(device: String, count: Int)] = []
                for entry in current {
                    let key = UnsafeBufferPointer(rebasing: nowBytes[entry.key])
                    let previous = earlier.first { other in
                        other.key.count == entry.key.count
                            && UnsafeBufferPointer(rebasing: beforeBytes[other.key]).elementsEqual(key)
                    }
                    let difference = entry.value - (previous?.value ?? 0)
                    if difference > 0 { counts.append((String(decoding: key, as: UTF8.self), difference)) }
                }
                return counts
            }
        }
        if let fast { return fast }
        let earlier = deviceCounts(before)
        return deviceCounts(now).compactMap { name, total in
            let difference = total - (earlier.first { $0.device == name }?.count ?? 0)
            return difference > 0 ? (name, difference) : nil
        }
    }

    /// A `devices` column (a JSON object of device names to integer counts, as `json_group_object` writes
    /// it), sorted by device (byte order, as SQLite sorts); `[]` for `nil`. Parsed by hand (the page list
    /// reads hundreds of them per query); anything else is left to `JSONSerialization`.
    static func deviceCounts(_ json: String?) -> [(device: String, count: Int)] {
        guard var json else { return [] }
        let parsed = json.withUTF8 { bytes in
            DeviceCountsParser.entries(bytes).map { entries in
                entries.map { (String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.key]), as: UTF8.self), $0.value) }
            }
        }
        let counts: [(device: String, count: Int)]
        if let parsed {
            counts = parsed
        } else if let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] {
            counts = object.compactMap { key, value in (value as? NSNumber).map { (key, $0.intValue) } }
        } else {
            return []
        }
        if zip(counts, counts.dropFirst()).allSatisfy({ precedes($0.device, $1.device) }) { return counts }
        return counts.sorted { precedes($0.device, $1.device) }
    }

    /// SQLite's BINARY order of text: byte order of the UTF-8.
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    /// A (test, branch) pair to classify, with its page rows in the window.
    struct Candidate {
        var testID: String
        var branch: String
        var rows: [PageRow]
    }

    /// A candidate's verdict: its newest results in the window (newest first, each with the commit
    /// `""` unless it is the newest result's), the newest result's id and the rules' classification.
    struct Evaluated {
        var recent: [FlakyClassifier.Outcome]
        var newestResultID: Int64?
        var hasContradiction: Bool
        var classification: FlakyClassifier.Classification
    }

    /// The page rows of `flaky_test_pages tp` with their window counts: the cumulative failures (and per
    /// device) now minus those of the row's newest day before the window (`?1` = the window's first day).
    /// The first failure in the window is read only `withFirstFailure`.
    static func pageRowSelect(withFirstFailure: Bool = true) -> String {
        let before = """
            FROM flaky_page_days d WHERE d.test_id = tp.test_id AND d.branch = tp.branch AND d.device = tp.device
                AND d.page = tp.page AND d.day < ?1 ORDER BY d.day DESC LIMIT 1
            """
        let firstFailure =
            withFirstFailure
            ? """
            (SELECT d.first_fail_at FROM flaky_page_days d WHERE d.test_id = tp.test_id AND d.branch = tp.branch
                AND d.device = tp.device AND d.page = tp.page AND d.day >= ?1 ORDER BY d.day LIMIT 1)
            """ : "NULL"
        return """
            SELECT tp.test_id, tp.branch, tp.device, tp.page,
                CASE WHEN tp.page = '' THEN (SELECT t.suite FROM tests t WHERE t.id = tp.test_id) ELSE '' END,
                tp.last_fail_at, tp.last_result_id,
                CASE WHEN tp.device <> '*' THEN tp.fails - coalesce((SELECT d.fails \(before)), 0) END,
                \(firstFailure), tp.devices, CASE WHEN tp.device = '*' THEN (SELECT d.devices \(before)) END
            FROM flaky_test_pages tp
            """
    }

    static func pageRow(_ row: any SQLRow) -> PageRow {
        var pageRow = PageRow(
            testID: row.string(0), branch: row.string(1), device: row.string(2), page: row.string(3),
            suite: row.string(4), lastFailAt: row.int64(5), lastResultID: row.int64(6), windowFailures: 0,
            windowFirstFailAt: row.isNull(8) ? nil : row.int64(8))
        if row.isNull(7) {
            // Device `*`: the per-device differences, and their sum (the row's own count is their sum).
            pageRow.deviceFailures = windowCounts(now: row.optionalString(9), before: row.optionalString(10))
            pageRow.windowFailures = pageRow.deviceFailures.reduce(0) { $0 + $1.count }
        } else {
            pageRow.windowFailures = row.int(7)
            pageRow.deviceFailures = pageRow.windowFailures > 0 ? [(pageRow.device, pageRow.windowFailures)] : []
        }
        return pageRow
    }

    /// The condition on `flaky_test_pages tp` for the rows of device key `device` failing in the window
    /// of the project and branch (`?1` is left to the caller: the values start at `?2`).
    func windowPageRowFilter(device: String) -> (String, [any SQLBindable]) {
        var conditions = ["tp.device = ?2", "tp.last_fail_at >= ?3"]
        var values: [any SQLBindable] = [device, window.since]
        if let project = window.query.project {
            conditions.append("tp.project = ?\(values.count + 2)")
            values.append(project)
        }
        if let branch = window.query.branch {
            conditions.append("tp.branch = ?\(values.count + 2)")
            values.append(branch)
        }
        return (conditions.joined(separator: " AND "), values)
    }

    /// The (test, branch) pairs of `rows` (sorted by test, then branch), in that order.
    func group(_ rows: [PageRow]) -> [Candidate] {
        var candidates: [Candidate] = []
        for row in rows {
            if let last = candidates.last, last.testID == row.testID, last.branch == row.branch {
                candidates[candidates.count - 1].rows.append(row)
            } else {
                candidates.append(Candidate(testID: row.testID, branch: row.branch, rows: [row]))
            }
        }
        return candidates
    }

    /// The candidates of `flakyTests`: every pair failing in the window on the device key, or with `page`
    /// those failing on it (with all their page rows, so their other pages are reported too).
    func candidates() throws -> [Candidate] {
        let (filter, values) = windowPageRowFilter(device: window.deviceKey)
        guard let page = window.query.page else {
            return group(
                try db.query(
                    "\(Self.pageRowSelect()) WHERE \(filter) ORDER BY tp.test_id, tp.branch",
                    [window.sinceDay] + values, row: Self.pageRow))
        }
        let pageKey = page == FlakyReport.noPage ? "" : page
        // The pairs failing on the page in the window (the window conditions on `q`), with all their rows
        // (looked up by pair: `+` keeps the window index out of the outer loop).
        var pairConditions = [filter.replacingOccurrences(of: "tp.", with: "q."), "q.page = ?\(values.count + 2)"]
        var allValues = values + [pageKey]
        if pageKey.isEmpty, let suite = window.query.suite {
            pairConditions.append("t.suite = ?\(allValues.count + 2)")
            allValues.append(suite)
        }
        return group(
            try db.query(
                """
                \(Self.pageRowSelect())
                WHERE tp.device = ?2 AND +tp.last_fail_at >= ?3 AND (tp.test_id, tp.branch) IN (
                    SELECT q.test_id, q.branch FROM flaky_test_pages q JOIN tests t ON t.id = q.test_id
                    WHERE \(pairConditions.joined(separator: " AND ")))
                ORDER BY tp.test_id, tp.branch
                """, [window.sinceDay] + allValues, row: Self.pageRow))
    }

    /// Applies the rules to every pair of `pairs` on the window's device scope: one statement reads each
    /// pair's outcome pack (`flaky_outcomes`) and whether a commit contradicts inside the window; its newest
    /// max(N, K, broken minimum) outcomes in the window are classified here. Outcomes on the newest result's
    /// commit (by commit key) carry that commit's text, read only when the newest outcome failed (otherwise
    /// the test cannot be broken).
    func evaluate(_ pairs: [(testID: String, branch: String)]) throws -> [Evaluated] {
        guard !pairs.isEmpty else { return [] }
        var list = BatchRows()
        for pair in pairs { list.append([.text(pair.testID), .text(pair.branch)]) }
        let policy = window.query.policy
        let sampleSize = max(policy.recentResults, policy.recoveryPasses, policy.brokenMinimum)
        let since = window.since
        /// A pair's newest outcomes in the window: failed, and on the newest outcome's commit when that
        /// failed on a commit.
        struct Read {
            var outcomes: [(failed: Bool, onNewestCommit: Bool)] = []
            var newestResultID: Int64?
            var hasContradiction: Bool
        }
        let reads = try db.query(
            """
            SELECT o.newest_result_id, o.outcomes,
                EXISTS (SELECT 1 FROM flaky_commits c WHERE c.test_id = (j.value ->> 0)
                    AND c.branch = (j.value ->> 1) AND c.device = ?2 AND c.passes > 0 AND c.fails > 0
                    AND \(db.dialect.least("c.last_pass_at", "c.last_fail_at")) >= ?3)
            FROM \(db.dialect.jsonArrayRows("?1", as: "j")) LEFT JOIN tests t ON t.id = (j.value ->> 0)
            LEFT JOIN flaky_outcomes o ON o.test_key = t.key AND o.branch = (j.value ->> 1) AND o.device = ?2
            ORDER BY j.key
            """, [list.json, window.deviceKey, since]
        ) { row -> Read in
            var read = Read(hasContradiction: row.int(2) != 0)
            var newestKey: UInt32 = 0
            row.withBlob(1) { bytes in
                OutcomePack.forEach(in: bytes) { outcome in
                    guard outcome.ranAt >= since, read.outcomes.count < sampleSize else { return false }
                    if read.outcomes.isEmpty { newestKey = outcome.failed ? outcome.commitKey : 0 }
                    read.outcomes.append((outcome.failed, newestKey != 0 && outcome.commitKey == newestKey))
                    return true
                }
            }
            if !read.outcomes.isEmpty, !row.isNull(0) { read.newestResultID = row.int64(0) }
            return read
        }
        guard reads.count == pairs.count else { throw StoreError.invalid("flaky evaluation lost a candidate") }
        // The newest result failed on a commit: the commit's text, for the broken verdict (one statement for
        // every such pair).
        let commits = try resultCommits(
            reads.compactMap { $0.outcomes.first?.onNewestCommit == true ? $0.newestResultID : nil })
        return reads.map { read in
            var commit = ""
            if read.outcomes.first?.onNewestCommit == true, let newestResultID = read.newestResultID {
                commit = commits[newestResultID] ?? ""
            }
            let recent = read.outcomes.map { FlakyClassifier.Outcome(failed: $0.failed, commit: $0.onNewestCommit ? commit : "") }
            return Evaluated(
                recent: recent, newestResultID: read.newestResultID, hasContradiction: read.hasContradiction,
                classification: window.classifier.classify(newestFirst: recent, hasContradiction: read.hasContradiction))
        }
    }

    /// The `commit_sha` of each stored result of `resultIDs` (`""` for none), in one statement.
    func resultCommits(_ resultIDs: [Int64]) throws -> [Int64: String] {
        guard !resultIDs.isEmpty else { return [:] }
        var list = BatchRows()
        for id in Set(resultIDs) { list.append([.integer(id)]) }
        var commits: [Int64: String] = [:]
        try db.forEachRow(
            """
            SELECT r.id, r.commit_sha FROM \(db.dialect.jsonArrayRows("?1", as: "j"))
            JOIN results r ON r.id = CAST(j.value ->> 0 AS BIGINT)
            """, [list.json]
        ) { row in
            commits[row.int64(0)] = row.string(1)
            return true
        }
        return commits
    }

    /// The run, time and first screenshot link of each stored result of `resultIDs`, in one statement.
    func failureLinks(_ resultIDs: [Int64]) throws -> [Int64: FailureLink] {
        guard !resultIDs.isEmpty else { return [:] }
        var list = BatchRows()
        for id in Set(resultIDs) { list.append([.integer(id)]) }
        var links: [Int64: FailureLink] = [:]
        try db.forEachRow(
            """
            SELECT r.id, r.run_id, r.ran_at, (SELECT a.sha256 FROM result_artifacts a
                WHERE a.result_id = r.id AND a.kind = 'screenshot' ORDER BY a.position LIMIT 1)
            FROM \(db.dialect.jsonArrayRows("?1", as: "j")) JOIN results r ON r.id = CAST(j.value ->> 0 AS BIGINT)
            """, [list.json]
        ) { row in
            links[row.int64(0)] = FailureLink(
                resultId: row.int(0), runId: row.string(1), ranAt: Timestamp.date(row.int64(2)),
                screenshot: row.optionalString(3).map { "/artifacts/\($0).png" })
            return true
        }
        return links
    }

    /// The contradicting commits in the window of the first `?4` pairs (by `key`: see ``keyOf(_:)``) of the
    /// JSON array `?1` of [test, branch] on device key `?2`, in the window from `?3` (milliseconds): per
    /// pair, newest first then by commit (a walk of `flaky_commits_contradicting` each).
    static func contradictingCommits(_ dialect: SQLDialect) -> String {
        """
        SELECT j.key, c.commit_sha, c.passes, c.fails, \(dialect.greatest("c.last_pass_at", "c.last_fail_at"))
        FROM \(dialect.jsonArrayRows("?1", as: "j")) JOIN flaky_commits c ON c.test_id = (j.value ->> 0)
            AND c.branch = (j.value ->> 1) AND c.device = ?2 AND c.passes > 0 AND c.fails > 0
            AND \(dialect.least("c.last_pass_at", "c.last_fail_at")) >= ?3
        WHERE j.key < ?4
        ORDER BY j.key, \(dialect.least("c.last_pass_at", "c.last_fail_at")) DESC, c.commit_sha
        """
    }

    /// A candidate the rules found flaky.
    struct FlakyEntry {
        var candidate: Candidate
        var evaluated: Evaluated
        var reasons: [FlakyReason]
    }

    /// A candidate the rules found broken.
    struct BrokenEntry {
        var candidate: Candidate
        var evaluated: Evaluated
        var commit: String
        var failCount: Int
    }

    /// The report entries of `flaky` and `broken`, in their order, with a fixed number of statements whatever
    /// their number (one round trip each on PostgreSQL): the identities and pass/fail counts in the window,
    /// the contradicting commits, the call sites, the newest failures' links.
    func reportEntries(flaky: [FlakyEntry], broken: [BrokenEntry]) throws
        -> (flaky: [FlakyTest], broken: [BrokenTest])
    {
        let pairs = flaky.map(\.candidate) + broken.map(\.candidate)
        var list = BatchRows()
        for pair in pairs { list.append([.text(pair.testID), .text(pair.branch)]) }
        let pairValues: [any SQLBindable] = [list.json, window.deviceKey]
        let identities = try identitiesAndCounts(list.json, count: pairs.count)
        // The flaky pairs' contradicting commits and call sites, by the pair's position.
        var commits: [Int: [ContradictingCommit]] = [:]
        var callSites: [Int: [FlakyCallSite]] = [:]
        if !flaky.isEmpty {
            // Every contradicting commit in the window, newest first (`flaky_commits_contradicting`); the first
            // few are listed, all counted.
            try db.forEachRow(Self.contradictingCommits(db.dialect), pairValues + [window.since, keyOf(flaky.count)]) {
                row in
                commits[row.int(0), default: []].append(
                    ContradictingCommit(
                        commit: row.string(1), passes: row.int(2), fails: row.int(3),
                        seenAt: Timestamp.date(row.int64(4))))
                return true
            }
            // The call sites on the device key's rows (the all-devices key has its own).
            try db.forEachRow(
                """
                SELECT j.key, c.page, c.file, c.line, c.fails, c.last_fail_at
                FROM \(db.dialect.jsonArrayRows("?1", as: "j")) JOIN flaky_call_sites c ON c.test_id = (j.value ->> 0)
                    AND c.branch = (j.value ->> 1) AND c.device = ?2 AND c.last_fail_at >= ?3
                WHERE j.key < ?4
                ORDER BY j.key, c.last_fail_at DESC, c.file, c.line
                """, pairValues + [window.since, keyOf(flaky.count)]
            ) { row in
                callSites[row.int(0), default: []].append(
                    FlakyCallSite(
                        file: row.string(2), line: row.int(3),
                        page: row.string(1).isEmpty ? FlakyReport.noPage : row.string(1),
                        totalFailureCount: row.int(4), lastFailureAt: Timestamp.date(row.int64(5))))
                return true
            }
        }
        let askedPage = window.query.page.map { $0 == FlakyReport.noPage ? "" : $0 }
        let newestRows = flaky.map { newestRow($0.candidate, askedPage: askedPage) }
        let links = try failureLinks(
            newestRows.compactMap { $0?.lastResultID } + broken.compactMap(\.evaluated.newestResultID))
        let flakyTests = flaky.enumerated().map { index, entry in
            let listed = commits[keyOf(index)] ?? []
            return flakyTest(
                entry, identity: identities[index], commits: Array(listed.prefix(FlakyTest.contradictingCommitLimit)),
                commitCount: listed.count, callSites: callSites[keyOf(index)] ?? [],
                newestFailure: newestRows[index].flatMap { links[$0.lastResultID] })
        }
        let brokenTests = broken.enumerated().map { index, entry in
            let test = identities[flaky.count + index].test
            return BrokenTest(
                testId: entry.candidate.testID, project: test?.project ?? "", suite: test?.suite ?? "",
                name: test?.name ?? "", arguments: test?.arguments, branch: entry.candidate.branch,
                commit: entry.commit, failCount: entry.failCount, newestFailure: entry.evaluated.newestResultID.flatMap { links[$0] })
        }
        return (flakyTests, brokenTests)
    }

    /// The `key` of the `index`-th element of a JSON array as rows (``SQLDialect/jsonArrayRows(_:as:)``):
    /// 0-based on SQLite, 1-based on PostgreSQL (`WITH ORDINALITY`).
    private func keyOf(_ index: Int) -> Int { db.dialect == .sqlite ? index : index + 1 }

    /// Each pair's (of the JSON array `pairs`, `count` of them) test identity (`nil` when the test is gone)
    /// and pass and fail counts in the window: the key's lifetime counts minus those before its first day in
    /// the window.
    private func identitiesAndCounts(_ pairs: String, count: Int) throws
        -> [(test: TestIdentity?, passes: Int, fails: Int)]
    {
        guard count > 0 else { return [] }
        let firstDayInWindow = """
            FROM flaky_test_days d WHERE d.test_key = t.key AND d.branch = (j.value ->> 1) AND d.device = ?2
                AND d.day >= ?3 ORDER BY d.day LIMIT 1
            """
        let rows = try db.query(
            """
            SELECT t.project, t.suite, t.name, t.arguments,
                o.passes - coalesce((SELECT d.passes_before \(firstDayInWindow)), o.passes),
                o.fails - coalesce((SELECT d.fails_before \(firstDayInWindow)), o.fails),
                CASE WHEN t.id IS NULL THEN 0 ELSE 1 END
            FROM \(db.dialect.jsonArrayRows("?1", as: "j")) LEFT JOIN tests t ON t.id = (j.value ->> 0)
            LEFT JOIN flaky_outcomes o ON o.test_key = t.key AND o.branch = (j.value ->> 1) AND o.device = ?2
            ORDER BY j.key
            """, [pairs, window.deviceKey, window.sinceDay]
        ) { row in
            (
                test: row.int(6) == 0 ? nil : TestIdentity(row: row), passes: row.optionalInt(4) ?? 0,
                fails: row.optionalInt(5) ?? 0
            )
        }
        guard rows.count == count else { throw StoreError.invalid("flaky report lost a candidate") }
        return rows
    }

    /// The row whose newest failure a flaky entry links: the newest failing row (on the asked page only,
    /// with a page filter) with failures in the window.
    private func newestRow(_ candidate: Candidate, askedPage: String?) -> PageRow? {
        var newest: PageRow?
        for row in candidate.rows where row.windowFailures > 0 {
            if askedPage == nil || askedPage == row.page, row.lastFailAt > (newest?.lastFailAt ?? Int64.min) {
                newest = row
            }
        }
        return newest
    }

    /// The report entry of a flaky candidate, from what ``reportEntries(flaky:broken:)`` read.
    private func flakyTest(
        _ entry: FlakyEntry, identity: (test: TestIdentity?, passes: Int, fails: Int), commits: [ContradictingCommit],
        commitCount: Int, callSites: [FlakyCallSite], newestFailure: FailureLink?
    ) -> FlakyTest {
        let candidate = entry.candidate
        var pages: [PageKey: (count: Int, last: Int64)] = [:]
        var devices: [String: Int] = [:]
        var first: Int64?
        var last: Int64?
        for row in candidate.rows {
            guard row.windowFailures > 0 else { continue }
            let previous = pages[row.pageKey]
            pages[row.pageKey] = (
                (previous?.count ?? 0) + row.windowFailures, max(previous?.last ?? row.lastFailAt, row.lastFailAt)
            )
            for (device, count) in row.deviceFailures { devices[device, default: 0] += count }
            if let firstAt = row.windowFirstFailAt { first = min(first ?? firstAt, firstAt) }
            last = max(last ?? row.lastFailAt, row.lastFailAt)
        }
        let test = identity.test
        let suite = test?.suite ?? candidate.rows.first?.suite ?? ""
        let classification = entry.evaluated.classification
        return FlakyTest(
            testId: candidate.testID, project: test?.project ?? "", suite: suite,
            name: test?.name ?? "", arguments: test?.arguments, branch: candidate.branch, reasons: entry.reasons,
            flipRate: classification.flipRate, flips: classification.flips,
            sampleCount: classification.sampleCount, passCount: identity.passes, failCount: identity.fails,
            contradictingCommits: commits, contradictingCommitCount: commitCount,
            firstFlakyFailureAt: first.map(Timestamp.date), lastFlakyFailureAt: last.map(Timestamp.date),
            pages: pages.map { key, value in
                FlakyPageCount(
                    page: key.page.isEmpty ? FlakyReport.noPage : key.page, suite: key.page.isEmpty ? key.suite : nil,
                    failureCount: value.count, lastFailureAt: Timestamp.date(value.last))
            }
            .sorted { ($1.failureCount, $0.page) < ($0.failureCount, $1.page) },
            callSites: callSites, devices: FailscopeStore.deviceCounts(devices), newestFailure: newestFailure)
    }
}

/// Reads `{"name":123,...}` as `json_group_object` writes it (string keys without JSON escapes, integer
/// values, no white space); `nil` for anything else (the callers fall back to `JSONSerialization`).
private enum DeviceCountsParser {
    /// The keys (byte ranges of `bytes`, without quotes) and values of an object whose keys have no
    /// escapes; `nil` otherwise.
    static func entries(_ bytes: UnsafeBufferPointer<UInt8>) -> [(key: Range<Int>, value: Int)]? {
        var entries: [(key: Range<Int>, value: Int)] = []
        var index = 0
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard take(UInt8(ascii: "{")) else { return nil }
        if take(UInt8(ascii: "}")) { return index == bytes.count ? entries : nil }
        repeat {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") { return nil }
                index += 1
            }
            let key = start..<index
            guard take(UInt8(ascii: "\"")), take(UInt8(ascii: ":")) else { return nil }
            let negative = take(UInt8(ascii: "-"))
            let digits = index
            var value = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"),
                index - digits < 18
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digits else { return nil }
            entries.append((key, negative ? -value : value))
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) && index == bytes.count ? entries : nil
    }
}
