// service-bench: helpers for scripts/bench/service.sh (release build).
//
//   service-bench raw --data DIR --batches N     raw SQLite inserts of the rows wrk's batches carry (reference)
//   service-bench store --data DIR --batches N [--device NAME] [--history]   the same batches through
//       FailscopeStore.addResults (no HTTP, no JSON; on a run of that device); --history: batch b is run b of the
//       same 100 tests, so each test's history grows by a result a batch
//   service-bench seed --data DIR --run ID --results N   a run of N results for the run-page benchmark
//
// Prints one number on stdout (results per second for `raw`); diagnostics go to stderr.
import FailscopeModel
@_spi(Engine) import FailscopeStore
import Foundation

/// The shape of one benchmark result, identical to scripts/bench/service-ingest.lua: every tenth fails
/// with one failure record; each has one trail step on LoginPage.
func benchResult(_ name: String, failing: Bool) -> TestResult {
    let callSite = SourceLocation(file: "/src/LoginTests.swift", line: 40)
    return TestResult(
        suite: "BenchSuite", name: name, status: failing ? .failed : .passed,
        startedAt: Date(timeIntervalSince1970: 1_796_000_000), duration: 0.5,
        failures: failing
            ? [
                Failure(
                    message: "Expected the error label",
                    location: SourceLocation(file: "/src/LoginTests.swift", line: 42),
                    page: "LoginPage", action: "tapLogin()", callSite: callSite,
                    elementFrame: Frame(x: 16, y: 300, width: 361, height: 50))
            ] : [],
        trail: [TrailStep(page: "LoginPage", action: "tapLogin()", callSite: callSite)])
}

func option(_ name: String, _ arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Inserts `batches` batches of 100 results with plain prepared INSERTs, one transaction per batch:
/// the same rows (tests, results, failures, trail steps, pages, run counters) the service writes, without
/// HTTP, JSON or validation. With `database` a PostgreSQL URI, into that database (libpq prepared statements).
func raw(data: URL, database: DatabaseLocation?, batches: Int) throws -> Double {
    let store = try FailscopeStore(directory: data, database: database)
    defer { store.close() }
    try store.putRun(Run(id: "raw", project: "Bench", branch: "main", startedAt: Date()))
    let started = Date()
    for batch in 0..<batches {
        try store.write { db in
            try db.transaction {
                for index in 0..<100 {
                    let result = benchResult("raw_\(batch)_\(index)", failing: index % 10 == 0)
                    let testID = TestIdentity.id(
                        project: "Bench", suite: result.suite, name: result.name, arguments: nil)
                    try db.run(
                        """
                        INSERT INTO tests (id, project, suite, name, arguments, first_seen_at, key)
                        VALUES (?, ?, ?, ?, '', ?, \(db.dialect.nextTestKey)) ON CONFLICT (id) DO NOTHING
                        """,
                        [testID, "Bench", result.suite, result.name, 0])
                    let id = try db.queryFirst(
                        """
                        INSERT INTO results (run_id, result_key, test_id, project, branch, commit_sha, device, reported_device,
                            page, call_site_file, call_site_line, attempt, status, skip_reason, started_at, ran_at, duration,
                            system_out, system_err)
                        VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?, ?, ?, ?, NULL, ?, ?, ?, NULL, NULL) RETURNING id
                        """,
                        [
                            "raw", result.resultKey, testID, "Bench", "main", "LoginPage", "/src/LoginTests.swift", 40,
                            1,
                            result.status.rawValue, 1_796_000_000_000, 1_796_000_000_000, 0.5,
                        ], row: { $0.int64(0) })
                    for (position, failure) in result.failures.enumerated() {
                        try db.run(
                            """
                            INSERT INTO failures (result_id, position, message, location_file, location_line, page, action,
                                call_site_file, call_site_line, element_x, element_y, element_width, element_height, is_error)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                            """,
                            [
                                id, position, failure.message, "/src/LoginTests.swift", 42, "LoginPage", "tapLogin()",
                                "/src/LoginTests.swift", 40, 16.0, 300.0, 361.0, 50.0,
                            ])
                    }
                    try db.run(
                        "INSERT INTO trail_steps (result_id, position, page, action, call_site_file, call_site_line) VALUES (?, 0, ?, ?, ?, ?)",
                        [id, "LoginPage", "tapLogin()", "/src/LoginTests.swift", 40])
                    try db.run(
                        "INSERT INTO result_pages (result_id, position, page) VALUES (?, 0, ?)", [id, "LoginPage"])
                }
                try db.run(
                    "UPDATE runs SET result_count = result_count + 100, passed_count = passed_count + 90, failed_count = failed_count + 10 WHERE id = ?",
                    ["raw"])
            }
        }
    }
    return Double(batches * 100) / Date().timeIntervalSince(started)
}

/// The same batches through the store's ingest (validation, run counters, flaky summaries), without HTTP or JSON;
/// with `device`, on a run of that device (results with a device also keep per-device summary rows).
func storeIngest(data: URL, batches: Int, device: String?, history: Bool) throws -> Double {
    let store = try FailscopeStore(directory: data)
    defer { store.close() }
    // With `history`, batch b is run b of the same 100 tests (a commit every three runs): each test's history
    // grows by one result a batch, as in a team's CI. Without, every batch adds 100 new tests to one run.
    let runs = history ? (0..<batches).map { "store-\($0)" } : ["store"]
    for (index, id) in runs.enumerated() {
        try store.putRun(
            Run(
                id: id, project: "Bench", branch: "main", commit: history ? "c\(index / 3)" : nil, device: device,
                startedAt: Date(timeIntervalSince1970: 1_796_000_000 + Double(index) * 600)))
    }
    let prepared = (0..<batches).map { batch in
        ResultBatch(
            results: (0..<100).map { index in
                var result = benchResult(
                    history ? "store_\(index)" : "store_\(batch)_\(index)", failing: index % 10 == 0)
                if history { result.startedAt = Date(timeIntervalSince1970: 1_796_000_000 + Double(batch) * 600) }
                return result
            })
    }
    let started = Date()
    for (batch, results) in prepared.enumerated() {
        try store.addResults(results, toRun: history ? runs[batch] : "store")
    }
    return Double(batches * 100) / Date().timeIntervalSince(started)
}

func seed(data: URL, run: String, results: Int) throws {
    let store = try FailscopeStore(directory: data)
    defer { store.close() }
    try store.putRun(
        Run(id: run, project: "Bench", branch: "main", commit: "abc", device: "iPhone 15", startedAt: Date()))
    let pages = ["LoginPage", "CatalogPage", "ItemPage", "SettingsPage", "MessagePage"]
    var offset = 0
    while offset < results {
        let count = min(500, results - offset)
        let batch = (offset..<offset + count).map { index -> TestResult in
            var result = benchResult("seed_\(index)", failing: index % 10 == 0)
            let page = pages[index % pages.count]
            result.suite = "Suite\(index % 40)"
            result.trail = [
                TrailStep(
                    page: page, action: "tap()",
                    callSite: SourceLocation(file: "/src/T\(index % 40).swift", line: 10 + index % 17))
            ]
            if !result.failures.isEmpty { result.failures[0].page = page }
            return result
        }
        try store.addResults(ResultBatch(results: batch), toRun: run)
        offset += count
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    guard let mode = arguments.first, let data = option("data", arguments) else {
        FileHandle.standardError.write(Data("usage: service-bench raw|seed --data DIR ...\n".utf8))
        exit(64)
    }
    switch mode {
    case "raw":
        print(
            String(
                format: "%.0f",
                try raw(
                    data: URL(fileURLWithPath: data),
                    database: try option("database", arguments).map { try DatabaseLocation(parsing: $0) },
                    batches: Int(option("batches", arguments) ?? "200") ?? 200)))
    case "store":
        print(
            String(
                format: "%.0f",
                try storeIngest(
                    data: URL(fileURLWithPath: data), batches: Int(option("batches", arguments) ?? "200") ?? 200,
                    device: option("device", arguments), history: arguments.contains("--history"))))
    case "seed":
        try seed(
            data: URL(fileURLWithPath: data), run: option("run", arguments) ?? "bench",
            results: Int(option("results", arguments) ?? "5000") ?? 5000)
    default:
        FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("service-bench: \(error)\n".utf8))
    exit(1)
}
