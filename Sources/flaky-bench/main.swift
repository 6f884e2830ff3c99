// flaky-bench: the generator and the latency measurement of scripts/bench/flaky.sh (release build).
//
//   flaky-bench generate --data DIR --results N [--tests 10000] [--pages 40] [--days 90] [--flaky-percent 3] [--seed 1]
//       fills a new store in DIR with a realistic history (HistoryGenerator) and writes DIR/generated.json
//   flaky-bench measure --data DIR [--queries 300]
//       in-process latency of the two queries as the service answers them (store query + JSON encoding),
//       with the window ending at the generation time; prints (ms) "pages_p50 pages_p95 flaky_p50 flaky_p95
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
    if arguments.contains("--verify") {
        // The accumulated summaries must equal the migration's populate statements over the same results.
        let check = try FailscopeStore(directory: directory)
        defer { check.close() }
        let accumulated = try check.flakySummaryRows()
        try check.rebuildFlakySummaries()
        let rebuilt = try check.flakySummaryRows()
        let different = accumulated.keys.sorted().filter { accumulated[$0] != rebuilt[$0] }
        for table in different {
            FileHandle.standardError.write(
                Data("verify: \(table) differs (\(accumulated[table]?.count ?? 0) vs \(rebuilt[table]?.count ?? 0) rows)\n".utf8))
        }
        if !different.isEmpty { exit(1) }
        FileHandle.standardError.write(Data("verify: the accumulated summaries equal a rebuild from results\n".utf8))
    }
    FileHandle.standardError.write(
        Data(
            """
            generated \(summary.results) results (\(summary.failures) failing) in \(summary.runs) runs, \
            \(summary.flakyTests) flaky tests, in \(String(format: "%.1f", summary.seconds)) s \
            (summaries \(String(format: "%.1f", summary.summarySeconds)) s)\n
            """.utf8))
case "measure":
    let queries = option("queries", arguments).flatMap(Int.init) ?? 300
    let generated = try WireCoding.decoder().decode(
        Generated.self, from: Data(contentsOf: directory.appendingPathComponent("generated.json")))
    let store = try FailscopeStore(directory: directory)
    defer { store.close() }
    let encoder = WireCoding.encoder()
    var cpuTotal = (pages: 0.0, flaky: 0.0)
    func threadCPU() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
    }
    /// Wall-clock milliseconds (the measure) and thread CPU milliseconds (to see the machine's load).
    func timed(_ body: () throws -> Data) rethrows -> (Double, Double) {
        let cpu = threadCPU()
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try body()
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, threadCPU() - cpu)
    }
    let base = FailscopeStore.FlakyQuery(project: "Shop", branch: "main", days: 14, now: generated.now)
    // Warm the page cache and statement caches.
    for index in 0..<20 {
        _ = WireJSONWriter.encode(try store.flakyPages(base))
        var query = base
        query.page = generated.pages[index % generated.pages.count]
        _ = WireJSONWriter.encode(try store.flakyTests(query))
    }
    var pageTimes: [Double] = []
    var flakyTimes: [Double] = []
    var flakyCounts: [Int] = []
    var pageCount = 0
    for index in 0..<queries {
        let (pageTime, pageCPU) = try timed {
            let list = try store.flakyPages(base)
            pageCount = list.pages.count
            return WireJSONWriter.encode(list)  // as the service's handler writes it
        }
        pageTimes.append(pageTime)
        cpuTotal.pages += pageCPU
        var query = base
        query.page = generated.pages[index % generated.pages.count]
        let (flakyTime, flakyCPU) = try timed {
            let report = try store.flakyTests(query)
            flakyCounts.append(report.flaky.count)
            return WireJSONWriter.encode(report)
        }
        flakyTimes.append(flakyTime)
        cpuTotal.flaky += flakyCPU
    }
    pageTimes.sort()
    flakyTimes.sort()
    // Reference: the page list computed from the window's results (the query before the summaries).
    var naiveTimes: [Double] = []
    for _ in 0..<(arguments.contains("--no-reference") ? 1 : max(5, queries / 20)) {
        let (naiveTime, _) = try timed {
            try encoder.encode(try store.pages(project: "Shop", branch: "main", days: 14, now: generated.now))
        }
        naiveTimes.append(naiveTime)
    }
    naiveTimes.sort()
    // The size of the answers (the 10M history lists more flaky tests per page, with more commits each).
    var answerBytes = 0
    for page in generated.pages {
        var query = base
        query.page = page
        answerBytes += WireJSONWriter.encode(try store.flakyTests(query)).count
    }
    let total = try store.flakyTests(base)
    FileHandle.standardError.write(
        Data(
            """
            \(generated.results) results: pages lists \(pageCount) pages; \(total.flaky.count) flaky and \
            \(total.broken.count) broken tests on main in 14 days; flaky?page= lists \
            \(flakyCounts.min() ?? 0)...\(flakyCounts.max() ?? 0) tests (\(answerBytes / generated.pages.count) bytes of JSON \
            on average); mean CPU per query: pages \
            \(String(format: "%.2f", cpuTotal.pages / Double(queries))) ms, flaky?page= \
            \(String(format: "%.2f", cpuTotal.flaky / Double(queries))) ms\n
            """.utf8))
    print(
        String(
            format: "%.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %d", percentile(pageTimes, 0.5), percentile(pageTimes, 0.95),
            percentile(flakyTimes, 0.5), percentile(flakyTimes, 0.95), percentile(naiveTimes, 0.5),
            percentile(naiveTimes, 0.95), cpuTotal.pages / Double(queries), cpuTotal.flaky / Double(queries),
            answerBytes / generated.pages.count))
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
