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
        var list = BatchJSON()
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
        return try reads.map { read in
            // The newest result failed on a commit: the commit's text, for the broken verdict.
            var commit = ""
            if read.outcomes.first?.onNewestCommit == true, let newestResultID = read.newestResultID {
                commit = try db.queryFirst("SELECT commit_sha FROM results WHERE id = ?", [newestResultID]) {
                    $0.string(0)
                } ?? ""
            }
            let recent = read.outcomes.map { FlakyClassifier.Outcome(failed: $0.failed, commit: $0.onNewestCommit ? commit : "") }
            return Evaluated(
                recent: recent, newestResultID: read.newestResultID, hasContradiction: read.hasContradiction,
                classification: window.classifier.classify(newestFirst: recent, hasContradiction: read.hasContradiction))
        }
    }

    /// The result's run, time and first screenshot link.
    func failureLink(_ resultID: Int64) throws -> FailureLink? {
        try db.queryFirst(
            """
            SELECT r.run_id, r.ran_at, (SELECT a.sha256 FROM result_artifacts a
                WHERE a.result_id = r.id AND a.kind = 'screenshot' ORDER BY a.position LIMIT 1)
            FROM results r WHERE r.id = ?
            """, [resultID]
        ) {
            FailureLink(
                resultId: Int(resultID), runId: $0.string(0), ranAt: Timestamp.date($0.int64(1)),
                screenshot: $0.optionalString(2).map { "/artifacts/\($0).png" })
        }
    }

    /// The contradicting commits of `?1` (test), `?2` (branch) and `?3` (device key) in the window from
    /// `?4` (milliseconds), newest first then by commit (a walk of `flaky_commits_contradicting`).
    static func contradictingCommits(_ dialect: SQLDialect) -> String {
        """
        FROM flaky_commits WHERE test_id = ?1 AND branch = ?2 AND device = ?3 AND passes > 0 AND fails > 0
            AND \(dialect.least("last_pass_at", "last_fail_at")) >= ?4
        """
    }

    /// The report entry of a flaky candidate.
    func flakyTest(_ candidate: Candidate, _ evaluated: Evaluated, reasons: [FlakyReason]) throws -> FlakyTest {
        // The identity and the pass/fail counts in the window in one statement: the key's lifetime counts
        // minus those before its first day in the window. Then the newest contradicting commits (one
        // more than listed) and, only when there are more, their total, from their index `flaky_commits_contradicting`.
        let firstDayInWindow = """
            FROM flaky_test_days d WHERE d.test_key = t.key AND d.branch = ?2 AND d.device = ?3 AND d.day >= ?4
                ORDER BY d.day LIMIT 1
            """
        let identified = try db.queryFirst(
            """
            SELECT t.project, t.suite, t.name, t.arguments,
                o.passes - coalesce((SELECT d.passes_before \(firstDayInWindow)), o.passes),
                o.fails - coalesce((SELECT d.fails_before \(firstDayInWindow)), o.fails)
            FROM tests t LEFT JOIN flaky_outcomes o ON o.test_key = t.key AND o.branch = ?2 AND o.device = ?3
            WHERE t.id = ?1
            """, [candidate.testID, candidate.branch, window.deviceKey, window.sinceDay]
        ) { row in
            (
                test: TestIdentity(row: row),
                counts: (passes: row.optionalInt(4) ?? 0, fails: row.optionalInt(5) ?? 0)
            )
        }
        let test = identified?.test
        let counts = identified?.counts ?? (passes: 0, fails: 0)
        let contradicting = Self.contradictingCommits(db.dialect)
        let commitValues: [any SQLBindable] = [candidate.testID, candidate.branch, window.deviceKey, window.since]
        var commits = try db.query(
            """
            SELECT commit_sha, passes, fails, \(db.dialect.greatest("last_pass_at", "last_fail_at")) \(contradicting)
            ORDER BY \(db.dialect.least("last_pass_at", "last_fail_at")) DESC, commit_sha LIMIT ?5
            """, commitValues + [FlakyTest.contradictingCommitLimit + 1]
        ) { row in
            ContradictingCommit(
                commit: row.string(0), passes: row.int(1), fails: row.int(2), seenAt: Timestamp.date(row.int64(3)))
        }
        var commitCount = commits.count
        if commits.count > FlakyTest.contradictingCommitLimit {
            commits.removeLast(commits.count - FlakyTest.contradictingCommitLimit)
            commitCount = try db.scalar("SELECT count(*) \(contradicting)", commitValues).int ?? commitCount
        }

        var pages: [PageKey: (count: Int, last: Int64)] = [:]
        var devices: [String: Int] = [:]
        var first: Int64?
        var last: Int64?
        var newest: PageRow?
        let askedPage = window.query.page.map { $0 == FlakyReport.noPage ? "" : $0 }
        for row in candidate.rows {
            guard row.windowFailures > 0 else { continue }
            let previous = pages[row.pageKey]
            pages[row.pageKey] = (
                (previous?.count ?? 0) + row.windowFailures, max(previous?.last ?? row.lastFailAt, row.lastFailAt)
            )
            for (device, count) in row.deviceFailures { devices[device, default: 0] += count }
            if let firstAt = row.windowFirstFailAt { first = min(first ?? firstAt, firstAt) }
            last = max(last ?? row.lastFailAt, row.lastFailAt)
            if askedPage == nil || askedPage == row.page, row.lastFailAt > (newest?.lastFailAt ?? Int64.min) {
                newest = row
            }
        }
        // The call sites on the device key's rows (the all-devices key has its own).
        let callSites = try db.query(
            """
            SELECT page, file, line, fails, last_fail_at FROM flaky_call_sites
            WHERE test_id = ? AND branch = ? AND device = ? AND last_fail_at >= ? ORDER BY 5 DESC, file, line
            """, [candidate.testID, candidate.branch, window.deviceKey, window.since]
        ) {
            FlakyCallSite(
                file: $0.string(1), line: $0.int(2), page: $0.string(0).isEmpty ? FlakyReport.noPage : $0.string(0),
                totalFailureCount: $0.int(3), lastFailureAt: Timestamp.date($0.int64(4)))
        }
        let suite = test?.suite ?? candidate.rows.first?.suite ?? ""
        return FlakyTest(
            testId: candidate.testID, project: test?.project ?? "", suite: suite,
            name: test?.name ?? "", arguments: test?.arguments, branch: candidate.branch, reasons: reasons,
            flipRate: evaluated.classification.flipRate, flips: evaluated.classification.flips,
            sampleCount: evaluated.classification.sampleCount, passCount: counts.passes, failCount: counts.fails,
            contradictingCommits: commits, contradictingCommitCount: commitCount,
            firstFlakyFailureAt: first.map(Timestamp.date), lastFlakyFailureAt: last.map(Timestamp.date),
            pages: pages.map { key, value in
                FlakyPageCount(
                    page: key.page.isEmpty ? FlakyReport.noPage : key.page, suite: key.page.isEmpty ? key.suite : nil,
                    failureCount: value.count, lastFailureAt: Timestamp.date(value.last))
            }
            .sorted { ($1.failureCount, $0.page) < ($0.failureCount, $1.page) },
            callSites: callSites, devices: FailscopeStore.deviceCounts(devices),
            newestFailure: try newest.flatMap { try failureLink($0.lastResultID) })
    }

    /// The report entry of a broken candidate.
    func brokenTest(_ candidate: Candidate, _ evaluated: Evaluated, commit: String, failCount: Int) throws -> BrokenTest {
        let test = try FailscopeStore.testIdentity(db, candidate.testID)
        return BrokenTest(
            testId: candidate.testID, project: test?.project ?? "", suite: test?.suite ?? "", name: test?.name ?? "",
            arguments: test?.arguments, branch: candidate.branch, commit: commit, failCount: failCount,
            newestFailure: try evaluated.newestResultID.flatMap { try failureLink($0) })
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
