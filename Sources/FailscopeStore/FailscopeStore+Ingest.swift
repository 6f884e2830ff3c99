import FailscopeModel
import Foundation

extension FailscopeStore {
    /// Limits on ingested values (the API's, `IngestLimits`); larger input is refused with `StoreError.invalid`.
    public typealias Limits = IngestLimits

    /// What `putRun` did.
    public enum PutRunOutcome: Sendable, Equatable {
        case created
        case updated
    }

    /// Creates the run or updates its metadata (idempotent: the same body twice leaves one run).
    ///
    /// A run's `project` cannot change once set (its results' test ids depend on it). Several
    /// processes report one run (`swift test --parallel` runs one a test) in any order, so the run
    /// starts at the earliest `startedAt` and finishes at the latest `finishedAt` reported, and a PUT
    /// without `finishedAt`, `device` or `osVersion` keeps the stored one (it does not reopen a
    /// finished run). Branch, commit, device and start time changes are copied onto the run's
    /// stored results.
    /// - Throws: `StoreError.invalid` (bad id or fields), `.conflict` (project changed),
    ///   `.busy` / `.unavailable` / `.storageFull`.
    @discardableResult
    public func putRun(_ run: Run, now: Date = Date()) throws -> PutRunOutcome {
        try Self.validate(run, now: now)
        let nowMs = Timestamp.milliseconds(now)
        return try write { db in
            try db.transaction { () throws -> PutRunOutcome in
                let existing = try db.queryFirst(
                    "SELECT project, started_at, device FROM runs WHERE id = ?\(db.dialect.forUpdate)", [run.id]
                ) { (project: $0.string(0), startedAt: $0.int64(1), device: $0.optionalString(2)) }
                let existingProject = existing?.project
                let startedAt = min(Timestamp.milliseconds(run.startedAt), existing?.startedAt ?? .max)
                let device = run.device ?? existing?.device
                let finishedAt = run.finishedAt.map(Timestamp.milliseconds)
                let metadata: [any SQLBindable] = [
                    run.branch, run.commit, device, run.osVersion, run.ciProvider, run.ciBuildURL, run.ciJob,
                    run.source.rawValue, startedAt,
                ]
                guard let existingProject else {
                    let inserted = try db.run(
                        """
                        INSERT INTO runs (branch, commit_sha, device, os_version, ci_provider, ci_build_url, ci_job,
                            source, started_at, id, project, finished_at, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                        """, metadata + [run.id, run.project, finishedAt, nowMs, nowMs])
                    // Another writer (PostgreSQL: another replica) created the run meanwhile: run the transaction
                    // again, now updating it.
                    guard inserted == 1 else { throw PostgresError.serializationFailure }
                    try refreshStatus(db, runID: run.id)
                    return .created
                }
                guard existingProject == run.project else {
                    throw StoreError.conflict(
                        "run '\(run.id)' belongs to another project; a run's project cannot change")
                }
                try db.run(
                    """
                    UPDATE runs SET branch = ?1, commit_sha = ?2, device = ?3, os_version = coalesce(?4, os_version),
                        ci_provider = ?5, ci_build_url = ?6, ci_job = ?7, source = ?8, started_at = ?9,
                        finished_at = coalesce(\(db.dialect.greatest("finished_at", "?10")), finished_at, ?10),
                        updated_at = ?11
                    WHERE id = ?12
                    """, metadata + [finishedAt, nowMs, run.id])
                // The days the run's results ran on before the change: their page counts are recomputed too.
                let formerDays = try db.query(
                    "SELECT DISTINCT ran_at / ? FROM results WHERE run_id = ?", [FlakySummaries.millisecondsPerDay, run.id]
                ) { $0.int64(0) }
                let changed = try db.run(
                    """
                    UPDATE results SET branch = ?, commit_sha = ?, device = coalesce(reported_device, ?),
                        ran_at = coalesce(started_at, ?)
                    WHERE run_id = ? AND (branch IS DISTINCT FROM ? OR commit_sha IS DISTINCT FROM ?
                        OR device IS DISTINCT FROM coalesce(reported_device, ?)
                        OR ran_at IS DISTINCT FROM coalesce(started_at, ?))
                    """,
                    [
                        run.branch, run.commit, device, startedAt, run.id, run.branch, run.commit, device, startedAt,
                    ])
                if changed > 0 {
                    try FlakySummaries.rebuild(db, testsOfRun: run.id, project: run.project, formerDays: formerDays)
                }
                try refreshStatus(db, runID: run.id)
                return .updated
            }
        }
    }

    /// What `addResults` stored.
    public struct BatchOutcome: Sendable, Equatable, Codable {
        /// Results stored now.
        public var inserted: Int
        /// Results whose key was already stored in this run (left unchanged: the first copy wins).
        public var duplicates: Int

        public init(inserted: Int, duplicates: Int) {
            self.inserted = inserted
            self.duplicates = duplicates
        }
    }

    /// Stores a batch of results of run `runID` in one transaction, idempotent per `resultKey`.
    ///
    /// - Throws: `StoreError.runNotFound`, `StoreError.invalid` (nothing of the batch is stored),
    ///   `.busy` / `.unavailable` / `.storageFull`.
    @discardableResult
    public func addResults(_ batch: ResultBatch, toRun runID: String, now: Date = Date()) throws -> BatchOutcome {
        guard Run.isValidID(runID) else { throw StoreError.runNotFound(runID) }
        var batch = batch
        batch.results = batch.results.map(Self.replacingNUL)
        guard batch.results.count <= Limits.resultsPerBatch else {
            throw StoreError.invalid("a batch holds at most \(Limits.resultsPerBatch) results")
        }
        let now = Date()
        for (index, result) in batch.results.enumerated() { try Self.validate(result, index: index, now: now) }
        let nowMs = Timestamp.milliseconds(now)
        // The per-result work that needs no lock (test ids are SHA-256 over the run's project, which never
        // changes) is done before taking the one writer, so concurrent uploads only queue for the SQL.
        guard let project = try read({ db in
            try db.queryFirst("SELECT project FROM runs WHERE id = ?", [runID], row: { $0.string(0) })
        })
        else { throw StoreError.runNotFound(runID) }
        let identities = BatchIdentities(batch.results, project: project)
        let signatures = batch.results.map(FailureSignature.init(of:))
        return try write { db in
            try db.transaction { () throws -> BatchOutcome in
                // The run's fields its results copy. Its row is locked only after the batch's rows and its tests'
                // summaries are written, so uploads to one run write those side by side and take turns only for the
                // run's counts and the page days (PostgreSQL; a writer of the same tests that holds the row meanwhile,
                // putRun's, is a deadlock the transaction runs again after).
                let runFields = "SELECT project, branch, commit_sha, device, started_at FROM runs WHERE id = ?"
                guard let run = try db.queryFirst(runFields, [runID], row: RunFields.init) else {
                    throw StoreError.runNotFound(runID)
                }
                // A run deleted by retention and created again in another project meanwhile: ids anew.
                let identities =
                    run.project == project ? identities : BatchIdentities(batch.results, project: run.project)
                try Self.storeSignatures(db, signatures.compactMap { $0 })
                try Self.storeTests(
                    db, project: run.project, Array(zip(identities.testIDs, batch.results)), firstSeenAt: nowMs)
                var rows = BatchRows()
                for (index, result) in batch.results.enumerated() {
                    let startedAt = result.startedAt.map(Timestamp.milliseconds)
                    let place = Self.place(of: result)
                    rows.append(values: [
                        runID, identities.resultKeys[index], identities.testIDs[index], run.project, run.branch,
                        run.commit, result.device ?? run.device, result.device, place.page, place.callSite?.file,
                        place.callSite?.line, result.attempt, result.status.rawValue, result.skipReason, startedAt,
                        startedAt ?? run.startedAt, result.duration, result.systemOut, result.systemErr,
                        signatures[index]?.id,
                    ])
                }
                var storedIDs: [String: Int64] = [:]
                try db.insert(
                    into: "results",
                    [
                        "run_id": .text, "result_key": .text, "test_id": .text, "project": .text, "branch": .text,
                        "commit_sha": .text, "device": .text, "reported_device": .text, "page": .text,
                        "call_site_file": .text, "call_site_line": .integer, "attempt": .integer, "status": .text,
                        "skip_reason": .text, "started_at": .integer, "ran_at": .integer, "duration": .real,
                        "system_out": .text, "system_err": .text, "failure_signature": .text,
                    ], rows: rows, then: "ON CONFLICT (run_id, result_key) DO NOTHING RETURNING id, result_key"
                ) { storedIDs[$0.string(1)] = $0.int64(0) }
                // The stored results in batch order; of a key given twice, the first copy.
                var stored: [(index: Int, id: Int64)] = []
                for (index, key) in identities.resultKeys.enumerated() {
                    if let id = storedIDs.removeValue(forKey: key) { stored.append((index, id)) }
                }
                let outcome = BatchOutcome(inserted: stored.count, duplicates: batch.results.count - stored.count)
                guard !stored.isEmpty else { return outcome }
                try Self.storeDetails(db, stored.map { (batch.results[$0.index], $0.id) })
                try FlakySummaries.add(db, resultIDs: stored.map(\.id))
                // Another writer changed the run's fields since they were read (putRun copies them onto the results
                // it sees, not these): the batch runs again with the new ones.
                guard try db.queryFirst(runFields + db.dialect.forUpdate, [runID], row: RunFields.init) == run else {
                    throw PostgresError.serializationFailure
                }
                try Self.addToCounts(
                    db, runID: runID, stored.map { (batch.results[$0.index], $0.id, identities.testIDs[$0.index]) },
                    device: run.device, now: nowMs)
                return outcome
            }
        }
    }

    /// Marks run `runID` finished at `finish.finishedAt` (idempotent; the latest finish reported wins,
    /// as each process of a run reports its own).
    ///
    /// - Throws: `StoreError.runNotFound`, `.busy` / `.unavailable` / `.storageFull`.
    @discardableResult
    public func finishRun(_ runID: String, _ finish: RunFinish, now: Date = Date()) throws -> RunSummary {
        guard Run.isValidID(runID) else { throw StoreError.runNotFound(runID) }
        try Self.checkTime(finish.finishedAt, field: "finishedAt", now: now)
        try write { db in
            try db.transaction {
                let started = try db.queryFirst("SELECT started_at FROM runs WHERE id = ?", [runID]) { $0.int64(0) }
                if let started, Timestamp.milliseconds(finish.finishedAt) < started {
                    throw StoreError.invalid("finishedAt must not be before the run's startedAt")
                }
                let changed = try db.run(
                    """
                    UPDATE runs SET finished_at = coalesce(\(db.dialect.greatest("finished_at", "?1")), ?1),
                        updated_at = ?2 WHERE id = ?3
                    """,
                    [Timestamp.milliseconds(finish.finishedAt), Timestamp.milliseconds(now), runID])
                guard changed == 1 else { throw StoreError.runNotFound(runID) }
                try refreshStatus(db, runID: runID)
            }
        }
        guard let summary = try runSummary(runID) else { throw StoreError.runNotFound(runID) }
        return summary
    }

    /// Stores verified artifact bytes (in ``artifacts`` first, then the row, so a row never names bytes that are
    /// not stored); returns what was verified and whether this call stored it (`false`: identical bytes were
    /// already there).
    ///
    /// - Throws: `StoreError.invalid` / `.artifactRejected` (nothing stored), ``ArtifactStorageError`` when the
    ///   artifact storage cannot store them, file system errors.
    @discardableResult
    public func putArtifact(_ bytes: [UInt8], sha256: String, mediaType: String, now: Date = Date()) throws
        -> (artifact: ArtifactStore.Verified, created: Bool)
    {
        let verified = try ArtifactStore.verify(bytes, sha256: sha256, mediaType: mediaType)
        try storing { _ = try artifacts.put(bytes, verified: verified) }
        let created = try write { db in
            try db.run(
                """
                INSERT INTO artifacts (sha256, kind, byte_count, width, height, stored_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (sha256) DO NOTHING
                """,
                [
                    verified.sha256, verified.kind.rawValue, verified.byteCount, verified.width, verified.height,
                    Timestamp.milliseconds(now),
                ]) == 1
        }
        return (verified, created)
    }

    /// The stored artifact named `sha256` (row and bytes both present), or `nil`. With `checkingBytes: false` only
    /// the row is read: for a caller that opens the bytes next and answers 404 when they are gone (one request
    /// to an object store instead of two).
    ///
    /// - Throws: `StoreError`, ``ArtifactStorageError`` when the artifact storage does not answer.
    public func artifact(sha256: String, checkingBytes: Bool = true) throws -> ArtifactStore.Verified? {
        guard SHA256.isValidHex(sha256) else { return nil }
        let row = try read { db in
            try db.queryFirst("SELECT kind, byte_count, width, height FROM artifacts WHERE sha256 = ?", [sha256]) {
                ArtifactStore.Verified(
                    sha256: sha256, kind: ArtifactRef.Kind(rawValue: $0.string(0)) ?? .screenshot, byteCount: $0.int(1),
                    width: $0.optionalInt(2), height: $0.optionalInt(3))
            }
        }
        guard let row, try !checkingBytes || artifacts.contains(sha256: sha256) else { return nil }
        return row
    }

    // MARK: Internals

    /// The fields of a run its results copy, as `addResults` reads them.
    struct RunFields: Equatable {
        var project: String
        var branch: String?
        var commit: String?
        var device: String?
        var startedAt: Int64

        init(_ row: any SQLRow) {
            (project, branch, commit, device, startedAt) = (
                row.string(0), row.optionalString(1), row.optionalString(2), row.optionalString(3), row.int64(4)
            )
        }
    }

    /// What identifies each result of a batch, by position: its test's id (``TestIdentity/id``), its
    /// ``TestResult/resultKey`` and that key's ``TestResult/resultKeyTestPart``.
    struct BatchIdentities {
        var testIDs: [String] = []
        var resultKeys: [String] = []
        var testParts: [String] = []

        init(_ results: [TestResult], project: String) {
            testIDs.reserveCapacity(results.count)
            resultKeys.reserveCapacity(results.count)
            testParts.reserveCapacity(results.count)
            for result in results {
                testIDs.append(
                    TestIdentity.id(
                        project: project, suite: result.suite, name: result.name, arguments: result.arguments))
                resultKeys.append(result.resultKey)
                testParts.append(result.resultKeyTestPart)
            }
        }
    }

    /// A result's page and call site: its first failure's, else its trail's last step's.
    static func place(of result: TestResult) -> (page: String?, callSite: SourceLocation?) {
        let firstFailure = result.failures.first
        let lastStep = result.trail.last
        return (firstFailure?.page ?? lastStep?.page, firstFailure?.callSite ?? lastStep?.callSite)
    }

    /// Stores the new tests of a batch (`tests`: id and the result that names it, in batch order) with the next
    /// keys in batch order, so one upload's tests have neighbouring keys (and summary rows); one statement.
    ///
    /// - Throws: `StoreError.busy` / `.unavailable` / `.storageFull`.
    private static func storeTests(
        _ db: any SQLConnection, project: String, _ tests: [(id: String, result: TestResult)], firstSeenAt: Int64
    ) throws {
        var rows = BatchRows()
        var seen = Set<String>()
        for (id, result) in tests where seen.insert(id).inserted {
            rows.append(values: [id, project, result.suite, result.name, result.arguments ?? "", firstSeenAt])
        }
        // Another writer (PostgreSQL: another replica) may store one of them meanwhile: its key stays.
        try db.run(
            """
            INSERT INTO tests (id, project, suite, name, arguments, first_seen_at, key)
            SELECT (j.value ->> 0), (j.value ->> 1), (j.value ->> 2), (j.value ->> 3), (j.value ->> 4),
                CAST(j.value ->> 5 AS BIGINT), \(db.dialect.nextTestKeys(orderedBy: "j.key"))
            FROM \(db.dialect.jsonArrayRows("?1", as: "j"))
            WHERE NOT EXISTS (SELECT 1 FROM tests t WHERE t.id = (j.value ->> 0)) ORDER BY j.key
            ON CONFLICT (id) DO NOTHING
            """, [rows.json])
    }

    /// Adds the batch's `stored` results (with their ids and test ids) to run `runID`'s counts, in one statement.
    ///
    /// `failing_test_count` (tests whose last attempt failed or errored, on each device: the result's, else the
    /// run's `device`, as ``refreshStatus(_:runID:)`` counts them) changes by the batch's tests that fail now
    /// less those that failed before it. A test's last attempt before the batch is looked up in one range of
    /// the unique (run, key) index (every key of the test's attempts starts with its part), the batch's own
    /// ids left out; with the batch, it is the later of that and the batch's own. Call with the run's row
    /// locked, so the rows of the writers before are all seen.
    private static func addToCounts(
        _ db: any SQLConnection, runID: String, _ stored: [(result: TestResult, id: Int64, testID: String)],
        device: String?, now: Int64
    ) throws {
        // The rank of an attempt: later attempts higher, a failed one above a passed one of the same attempt.
        func rank(_ result: TestResult) -> Int { result.attempt * 2 + (result.status.outcome == .fail ? 1 : 0) }
        var ids = BatchRows()
        var added: [TestStatus: Int] = [:]
        var ranks: [[String?]: Int] = [:]
        var order: [[String?]] = []
        for (result, id, testID) in stored {
            ids.append(values: [id])
            added[result.status, default: 0] += 1
            let key = [result.resultKeyTestPart, testID, result.device ?? device]
            if ranks[key] == nil { order.append(key) }
            ranks[key] = max(ranks[key] ?? 0, rank(result))
        }
        var tests = BatchRows()
        for key in order {
            tests.append(values: [key[0]! + "\u{1F}", key[0]! + "\u{20}", key[1]!, key[2], ranks[key]!])
        }
        let after = db.dialect.greatest("coalesce(l.before, l.own)", "l.own")
        try db.run(
            """
            WITH l AS MATERIALIZED (
                SELECT CAST(j.value ->> 4 AS BIGINT) AS own, (
                    SELECT max(r.attempt * 2 + CASE WHEN r.status IN ('failed', 'error') THEN 1 ELSE 0 END)
                    FROM results r
                    WHERE r.run_id = ?1 AND r.result_key > (j.value ->> 0) AND r.result_key < (j.value ->> 1)
                        AND r.test_id = (j.value ->> 2) AND r.device IS NOT DISTINCT FROM (j.value ->> 3)
                        AND r.id NOT IN (
                            SELECT CAST(i.value ->> 0 AS BIGINT) FROM \(db.dialect.jsonArrayRows("?3", as: "i")))
                ) AS before
                FROM \(db.dialect.jsonArrayRows("?2", as: "j")))
            UPDATE runs SET result_count = result_count + ?4, passed_count = passed_count + ?5,
                failed_count = failed_count + ?6, error_count = error_count + ?7, skipped_count = skipped_count + ?8,
                expected_failure_count = expected_failure_count + ?9, failing_test_count = failing_test_count + d.delta,
                updated_at = ?10,
                status = CASE WHEN finished_at IS NULL THEN 'incomplete'
                    WHEN failing_test_count + d.delta > 0 THEN 'failed' ELSE 'passed' END
            FROM (SELECT CAST(coalesce(sum(\(after) % 2 - coalesce(l.before % 2, 0)), 0) AS BIGINT) AS delta FROM l)
                AS d
            WHERE id = ?1
            """,
            [
                runID, tests.json, ids.json, stored.count, added[.passed] ?? 0, added[.failed] ?? 0, added[.error] ?? 0,
                added[.skipped] ?? 0, added[.expectedFailure] ?? 0, now,
            ])
    }

    /// Stores the failures, trail steps, visited pages and artifact references of the `stored` results (each
    /// with its new id): one statement per table for the batch.
    private static func storeDetails(_ db: any SQLConnection, _ stored: [(result: TestResult, id: Int64)]) throws {
        var failures = BatchRows()
        var steps = BatchRows()
        var pages = BatchRows()
        var artifacts = BatchRows()
        for (result, id) in stored {
            for (position, failure) in result.failures.enumerated() {
                let frame = failure.elementFrame
                failures.append(values: [
                    id, position, failure.message, failure.location?.file, failure.location?.line, failure.page,
                    failure.action, failure.callSite?.file, failure.callSite?.line, frame?.x, frame?.y, frame?.width,
                    frame?.height, failure.isError,
                ])
            }
            for (position, step) in result.trail.enumerated() {
                let target = step.target
                steps.append(values: [
                    id, position, step.page, step.action, step.callSite?.file, step.callSite?.line, step.elementTree,
                    target?.x, target?.y, target?.width, target?.height, step.duration,
                ])
            }
            for (position, page) in result.pagesVisited.enumerated() { pages.append(values: [id, position, page]) }
            for (position, artifact) in result.artifacts.enumerated() {
                artifacts.append(values: [
                    id, position, artifact.sha256, artifact.kind.rawValue, artifact.byteCount, artifact.width,
                    artifact.height,
                ])
            }
        }
        try db.insert(
            into: "failures",
            [
                "result_id": .integer, "position": .integer, "message": .text, "location_file": .text,
                "location_line": .integer, "page": .text, "action": .text, "call_site_file": .text,
                "call_site_line": .integer, "element_x": .real, "element_y": .real, "element_width": .real,
                "element_height": .real, "is_error": .integer,
            ], rows: failures)
        try db.insert(
            into: "trail_steps",
            [
                "result_id": .integer, "position": .integer, "page": .text, "action": .text, "call_site_file": .text,
                "call_site_line": .integer, "element_tree": .text, "target_x": .real, "target_y": .real,
                "target_width": .real, "target_height": .real, "duration": .real,
            ], rows: steps)
        try db.insert(into: "result_pages", ["result_id": .integer, "position": .integer, "page": .text], rows: pages)
        try db.insert(
            into: "result_artifacts",
            [
                "result_id": .integer, "position": .integer, "sha256": .text, "kind": .text, "byte_count": .integer,
                "width": .integer, "height": .integer,
            ], rows: artifacts)
    }

    /// Recomputes `failing_test_count` (tests whose last attempt failed or errored) and `status`.
    private func refreshStatus(_ db: any SQLConnection, runID: String) throws {
        try db.run(
            """
            UPDATE runs SET failing_test_count = (
                SELECT count(*) FROM (
                    SELECT max(attempt * 2 + CASE WHEN status IN ('failed', 'error') THEN 1 ELSE 0 END) AS last
                    FROM results WHERE run_id = ?1 GROUP BY test_id, device
                ) AS latest WHERE last % 2 = 1)
            WHERE id = ?1
            """, [runID])
        try db.run(
            """
            UPDATE runs SET status = CASE WHEN finished_at IS NULL THEN 'incomplete'
                WHEN failing_test_count > 0 THEN 'failed' ELSE 'passed' END
            WHERE id = ?
            """, [runID])
    }

    /// `result` with U+0000 in its free text (failure messages, standard output and error, the skip reason)
    /// replaced by U+FFFD, as bytes that are not UTF-8 are: PostgreSQL's text cannot hold it, and both engines
    /// give back the same text. (Identity and name fields refuse it instead: ``checkText(_:field:required:)``.)
    static func replacingNUL(_ result: TestResult) -> TestResult {
        func replaced(_ text: String) -> String {
            text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
        }
        var result = result
        result.systemOut = result.systemOut.map(replaced)
        result.systemErr = result.systemErr.map(replaced)
        result.skipReason = result.skipReason.map(replaced)
        for index in result.failures.indices {
            result.failures[index].message = replaced(result.failures[index].message)
        }
        return result
    }

    /// The earliest time a run or result may carry: 2000-01-01T00:00:00Z.
    static let earliestTime = Date(timeIntervalSince1970: 946_684_800)

    /// Refuses a time before 2000 or more than a year after `now` (a CI clock may be off, but a run
    /// dated 9999 would sit at the top of every list forever).
    static func checkTime(_ date: Date, field: String, now: Date) throws(StoreError) {
        guard date >= earliestTime, date <= now.addingTimeInterval(366 * 86_400) else {
            throw .invalid(
                "\(field) must lie between 2000-01-01 and a year from now, got \(WireCoding.formatDate(date))")
        }
    }

    static func validate(_ run: Run, now: Date) throws(StoreError) {
        guard Run.isValidID(run.id) else {
            throw .invalid("a run id is \(Run.idRule)")
        }
        try checkTime(run.startedAt, field: "startedAt", now: now)
        if let finishedAt = run.finishedAt {
            try checkTime(finishedAt, field: "finishedAt", now: now)
            guard finishedAt >= run.startedAt else { throw .invalid("finishedAt must not be before startedAt") }
        }
        try checkText(run.project, field: "project", required: true)
        try checkIdentityText(run.project, field: "project")
        try checkDevice(run.device, field: "device")
        for (field, value) in [
            ("branch", run.branch), ("commit", run.commit), ("device", run.device), ("osVersion", run.osVersion),
            ("ciProvider", run.ciProvider), ("ciBuildURL", run.ciBuildURL), ("ciJob", run.ciJob),
        ] {
            if let value { try checkText(value, field: field, required: false) }
        }
    }

    static func validate(_ result: TestResult, index: Int, now: Date) throws(StoreError) {
        let prefix = "results[\(index)]"
        if let startedAt = result.startedAt { try checkTime(startedAt, field: "\(prefix).startedAt", now: now) }
        try checkText(result.suite, field: "\(prefix).suite", required: true)
        try checkText(result.name, field: "\(prefix).name", required: true)
        if let arguments = result.arguments { try checkText(arguments, field: "\(prefix).arguments", required: false) }
        try checkDevice(result.device, field: "\(prefix).device")
        if let device = result.device { try checkText(device, field: "\(prefix).device", required: false) }
        for (field, value) in [
            ("suite", result.suite), ("name", result.name), ("arguments", result.arguments), ("device", result.device),
        ] {
            if let value { try checkIdentityText(value, field: "\(prefix).\(field)") }
        }
        guard (1...Limits.maximumAttempt).contains(result.attempt) else {
            throw .invalid("\(prefix).attempt must be 1...\(Limits.maximumAttempt)")
        }
        if let duration = result.duration, !(duration.isFinite && duration >= 0) {
            throw .invalid("\(prefix).duration must be a finite number of seconds >= 0")
        }
        for (field, value) in [("systemOut", result.systemOut), ("systemErr", result.systemErr)] {
            if let value, value.utf8.count > Limits.outputBytes {
                throw .invalid("\(prefix).\(field) is longer than \(Limits.outputBytes) bytes")
            }
        }
        for (position, artifact) in result.artifacts.enumerated() {
            guard SHA256.isValidHex(artifact.sha256) else {
                throw .invalid("\(prefix).artifacts[\(position)].sha256 must be 64 lowercase hexadecimal digits")
            }
            guard artifact.byteCount >= 0 else { throw .invalid("\(prefix).artifacts[\(position)].byteCount < 0") }
        }
        for (position, failure) in result.failures.enumerated() {
            guard failure.message.utf8.count <= Limits.outputBytes else {
                throw .invalid("\(prefix).failures[\(position)].message is too long")
            }
            if let frame = failure.elementFrame,
                ![frame.x, frame.y, frame.width, frame.height].allSatisfy(\.isFinite)
            {
                throw .invalid("\(prefix).failures[\(position)].elementFrame must be finite")
            }
            for (field, location) in [("location", failure.location), ("callSite", failure.callSite)] {
                if let location, location.line < 0 {
                    throw .invalid("\(prefix).failures[\(position)].\(field).line must be >= 0")
                }
            }
            try checkTexts(
                [("page", failure.page), ("action", failure.action), ("location.file", failure.location?.file),
                    ("callSite.file", failure.callSite?.file)], in: "\(prefix).failures[\(position)]")
        }
        let trees = Set(result.artifacts.filter { $0.kind == .elementTree }.map(\.sha256))
        for (position, step) in result.trail.enumerated() {
            if (step.callSite?.line ?? 0) < 0 { throw .invalid("\(prefix).trail[\(position)].callSite.line must be >= 0") }
            if let tree = step.elementTree, !trees.contains(tree) {
                throw .invalid("\(prefix).trail[\(position)].elementTree must be the sha256 of one of the result's element_tree artifacts")
            }
            if let target = step.target, ![target.x, target.y, target.width, target.height].allSatisfy(\.isFinite) {
                throw .invalid("\(prefix).trail[\(position)].target must be finite")
            }
            if let duration = step.duration, !(duration.isFinite && duration >= 0) {
                throw .invalid("\(prefix).trail[\(position)].duration must be a finite number >= 0")
            }
            try checkTexts(
                [("page", step.page), ("action", step.action), ("callSite.file", step.callSite?.file)],
                in: "\(prefix).trail[\(position)]")
        }
    }

    /// `*` names every device in the flaky summaries (and the flaky queries refuse it as a filter).
    private static func checkDevice(_ device: String?, field: String) throws(StoreError) {
        if device == "*" { throw .invalid("\(field) '*' is reserved: it stands for every device") }
    }

    /// U+001F separates the fields a test's id and a result's key are made of (``TestIdentity/id``,
    /// ``TestResult/resultKey``): in one of them, two different tests could get the same id or key.
    private static func checkIdentityText(_ value: String, field: String) throws(StoreError) {
        guard !value.utf8.contains(0x1F) else {
            throw .invalid("\(field) must not contain U+001F (it separates the fields of a test's identity)")
        }
    }

    private static func checkTexts(_ fields: [(String, String?)], in prefix: String) throws(StoreError) {
        for (field, value) in fields {
            if let value { try checkText(value, field: "\(prefix).\(field)", required: false) }
        }
    }

    static func checkText(_ value: String, field: String, required: Bool) throws(StoreError) {
        if required && value.isEmpty { throw .invalid("\(field) must not be empty") }
        guard value.utf8.count <= Limits.textFieldBytes else {
            throw .invalid("\(field) is longer than \(Limits.textFieldBytes) bytes")
        }
        // A NUL cannot be given back as a query parameter (and C strings end there).
        guard !value.utf8.contains(0) else { throw .invalid("\(field) must not contain a NUL character") }
    }
}
