// flaky-bench: the generator and the latency measurement of scripts/bench/flaky.sh (release build).
//
//   flaky-bench generate --data DIR --results N [--tests 10000] [--pages 40] [--days 90] [--flaky-percent 3] [--seed 1]
//       fills a new store in DIR with a realistic history (HistoryGenerator) and writes DIR/generated.json
//   flaky-bench errors --data DIR [--database URI] [--queries 100]
//       in-process latency of the unique errors, a run's errors and a run comparison (ErrorsMeasurement), ms:
//       "errors_p50 errors_p95 run_errors_p50 run_errors_p95 compare_p50 compare_p95 errors_listed"
//   flaky-bench measure --data DIR [--compare DIR2 ...] [--queries 300] [--no-reference]
//       in-process latency of the two queries as the service answers them (store query + JSON encoding),
//       with the window ending at the generation time, the stores' queries interleaved; prints one line
//       per store, in order, (ms) "pages_p50 pages_p95 flaky_p50 flaky_p95
//       naive_p50 naive_p95 pages_cpu flaky_cpu flaky_bytes": naive = FailscopeStore.pages (scans the window's
//       results), cpu = mean thread CPU time per query (the machine's load shows as wall time above it),
//       flaky_bytes = the mean size of a flaky?page= answer
//
// Diagnostics go to stderr.
import FailscopeModel
import FailscopeStore
import Foundation

func option(_ name: String, _ arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("flaky-bench: \(message)\n".utf8))
    exit(64)
}

struct Generated: Codable {
    var now: Date
    var results: Int
    var failures: Int
    var runs: Int
    var flakyTests: Int
    var pages: [String]
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, let data = option("data", arguments) else {
    fail("usage: flaky-bench generate|measure --data DIR [options]")
}
let directory = URL(fileURLWithPath: data)
switch command {
case "generate":
    guard let results = option("results", arguments).flatMap(Int.init), results > 0 else { fail("--results N is required") }
    if FileManager.default.fileExists(atPath: directory.appendingPathComponent(FailscopeStore.databaseFileName).path) {
        fail("\(data) already holds a store")
    }
    var generator = HistoryGenerator(resultCount: results)
    generator.testCount = option("tests", arguments).flatMap(Int.init) ?? generator.testCount
    generator.pageCount = option("pages", arguments).flatMap(Int.init) ?? generator.pageCount
    generator.days = option("days", arguments).flatMap(Int.init) ?? generator.days
    generator.flakyPercent = option("flaky-percent", arguments).flatMap(Double.init) ?? generator.flakyPercent
    generator.seed = option("seed", arguments).flatMap(UInt64.init) ?? generator.seed
    let store = try FailscopeStore(directory: directory)
    let summary = try generator.generate(into: store)
    store.close()
    let pages = (0..<generator.pageCount).map {
        $0 < HistoryGenerator.pageNames.count ? HistoryGenerator.pageNames[$0] : "Page\($0)"
    }
    let generated = Generated(
        now: generator.now, results: summary.results, failures: summary.failures, runs: summary.runs,
        flakyTests: summary.flakyTests, pages: pages)
    try WireCoding.encoder().encode(generated).write(to: directory.appendingPathComponent("generated.json"))
    FileHandle.standardError.write(
        Data(
            """
            generated \(summary.results) results (\(summary.failures) failing) in \(summary.runs) runs, \
            \(summary.flakyTests) flaky tests, in \(String(format: "%.1f", summary.seconds)) s \
            (summaries \(String(format: "%.1f", summary.summarySeconds)) s)\n
            """.utf8))
case "measure":
    // Every store's queries interleaved, so they share the machine's load.
    let queries = option("queries", arguments).flatMap(Int.init) ?? 300
    var directories = [directory]
    for (index, argument) in arguments.enumerated() where argument == "--compare" && index + 1 < arguments.count {
        directories.append(URL(fileURLWithPath: arguments[index + 1]))
    }
    // --database: the first store's rows copied into PostgreSQL (failscope copy), measured there.
    let database = try option("database", arguments).map { try DatabaseLocation(parsing: $0) }
    let measurements = try directories.enumerated().map { index, directory in
        try QueryMeasurement(directory: directory, database: index == 0 ? database : nil)
    }
    for measurement in measurements { try measurement.warm() }
    for index in 0..<queries {
        for measurement in measurements { try measurement.measure(index) }
    }
    for measurement in measurements {
        print(try measurement.report(references: arguments.contains("--no-reference") ? 1 : max(5, queries / 20)))
    }
case "errors":
    let database = try option("database", arguments).map { try DatabaseLocation(parsing: $0) }
    let measurement = try ErrorsMeasurement(directory: directory, database: database)
    print(try measurement.measure(queries: option("queries", arguments).flatMap(Int.init) ?? 100))
    measurement.store.close()
case "ingest":
    // Ingest cost through FailscopeStore.addResults (which maintains the flaky summaries): batches of
    // 100 results (1 in 10 failing) into runs of 1,000 on a growing history; prints results per second.
    let batches = option("batches", arguments).flatMap(Int.init) ?? 200
    let store = try FailscopeStore(directory: directory)
    defer { store.close() }
    var elapsed = 0.0
    for batch in 0..<batches {
        if batch % 10 == 0 {
            try store.putRun(
                Run(
                    id: "ingest-\(batch / 10)", project: "Shop", branch: "main", commit: "c\(batch / 20)",
                    device: HistoryGenerator.devices[batch / 10 % 4], startedAt: Date().addingTimeInterval(Double(batch))))
        }
        let results = (0..<100).map { index -> TestResult in
            let test = (batch % 10) * 100 + index
            let failing = (test + batch) % 10 == 0
            let callSite = SourceLocation(file: "Tests/UITests/Suite\(test / 20)Tests.swift", line: 40)
            return TestResult(
                suite: "Suite\(test / 20)Tests", name: "test\(test)", status: failing ? .failed : .passed, duration: 1,
                failures: failing ? [Failure(message: "Timed out", page: "LoginPage", callSite: callSite)] : [],
                trail: [TrailStep(page: "LoginPage", action: "tap()", callSite: callSite)])
        }
        let start = DispatchTime.now().uptimeNanoseconds
        try store.addResults(ResultBatch(results: results), toRun: "ingest-\(batch / 10)")
        elapsed += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    print(String(format: "%.0f", Double(batches * 100) / elapsed))
default:
    fail("unknown command \(command)")
}
