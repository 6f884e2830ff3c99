import FailscopeModel
import FailscopeStore
import Foundation

/// `flaky-bench errors`: the latency of the unique-errors list (`GET /api/v1/errors?project=Shop&days=14`),
/// a run's errors with verdicts (`GET /api/v1/runs/{id}/errors`) and a run comparison
/// (`GET /api/v1/runs/{id}/compare`) on a generated store, as the service's handlers answer them (store
/// queries and JSON encoding, in process), on the store's SQLite file or, with `database`, on a PostgreSQL copy
/// of it (`failscope copy`). Runs cycle over the newest `main` runs that have a failure; a run's base is the
/// `main` run before it, another shard of the generated world, so a comparison lists every test of both runs
/// (about 2,000 results) as new or removed: the largest answer the endpoint gives for runs of 1,000 results.
struct ErrorsMeasurement {
    let generated: Generated
    let store: FailscopeStore

    init(directory: URL, database: DatabaseLocation?) throws {
        generated = try WireCoding.decoder().decode(
            Generated.self, from: Data(contentsOf: directory.appendingPathComponent("generated.json")))
        store = try FailscopeStore(directory: directory, database: database)
    }

    /// p50 and p95 in milliseconds of each of the three answers over `queries` rounds: one line,
    /// "errors_p50 errors_p95 run_errors_p50 run_errors_p95 compare_p50 compare_p95 errors_listed".
    func measure(queries: Int) throws -> String {
        let encoder = WireCoding.encoder()
        let query = FailscopeStore.WindowQuery(project: "Shop", days: 14, limit: 50, now: generated.now)
        let runs = try store.runs(.init(project: "Shop", branch: "main", status: .failed, limit: 50)).runs
        let main = try store.runs(.init(project: "Shop", branch: "main", limit: 200)).runs
        guard !runs.isEmpty else { fail("no failed run on main") }
        var times: [[Double]] = [[], [], []]
        var listed = 0
        for index in 0..<(queries + 10) {
            let run = runs[index % runs.count]
            let start = DispatchTime.now().uptimeNanoseconds
            let list = try store.errors(query)
            _ = try encoder.encode(list)
            listed = list.errors.count
            let afterList = DispatchTime.now().uptimeNanoseconds
            guard let detail = try store.runDetail(run.run.id, statuses: TestStatus.failing) else {
                fail("run \(run.run.id) vanished")
            }
            let base = RunComparison.defaultBase(
                of: run.run.id, among: main.filter { $0.run.startedAt < run.run.startedAt })
            _ = try encoder.encode(try store.runErrors(detail, base: base))
            let afterRunErrors = DispatchTime.now().uptimeNanoseconds
            guard let summary = try store.runSummary(run.run.id) else { fail("run \(run.run.id) vanished") }
            let baseSummary = try base.flatMap { try store.runSummary($0.run.id) }
            _ = WireJSONWriter.encode(try store.runComparison(summary, base: baseSummary))
            let end = DispatchTime.now().uptimeNanoseconds
            guard index >= 10 else { continue }  // warm-up
            times[0].append(Double(afterList - start) / 1e6)
            times[1].append(Double(afterRunErrors - afterList) / 1e6)
            times[2].append(Double(end - afterRunErrors) / 1e6)
        }
        let columns = times.map { $0.sorted() }.flatMap { [percentile($0, 0.5), percentile($0, 0.95)] }
        return (columns.map { String(format: "%.2f", $0) } + [String(listed)]).joined(separator: " ")
    }
}
