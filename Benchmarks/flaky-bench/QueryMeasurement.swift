import FailscopeModel
import FailscopeStore
import Foundation

/// The latency of the page list and `flaky?page=` on one generated store, query by query, so that
/// `flaky-bench measure` can interleave the queries of several stores (1M and 10M) and compare them under
/// the same machine load.
final class QueryMeasurement {
    let generated: Generated
    private let store: FailscopeStore
    private let base: FailscopeStore.FlakyQuery
    private var pageTimes: [Double] = []
    private var flakyTimes: [Double] = []
    private var flakyCounts: [Int] = []
    private var pageCount = 0
    private var cpuTotal = (pages: 0.0, flaky: 0.0)

    /// The store generated in `directory`, its database there or at `database` (a copy of it in PostgreSQL).
    init(directory: URL, database: DatabaseLocation? = nil) throws {
        generated = try WireCoding.decoder().decode(
            Generated.self, from: Data(contentsOf: directory.appendingPathComponent("generated.json")))
        store = try FailscopeStore(directory: directory, database: database)
        base = FailscopeStore.FlakyQuery(project: "Shop", branch: "main", days: 14, now: generated.now)
    }

    deinit { store.close() }

    /// Warms the page cache and the statement caches.
    func warm() throws {
        for index in 0..<20 {
            _ = WireJSONWriter.encode(try store.flakyPages(base))
            _ = WireJSONWriter.encode(try store.flakyTests(pageQuery(index)))
        }
    }

    /// One page list and one `flaky?page=` (page `index` modulo the pages), as the service's handlers
    /// answer them: store query and JSON.
    func measure(_ index: Int) throws {
        let (pageTime, pageCPU) = try Self.timed {
            let list = try store.flakyPages(base)
            pageCount = list.pages.count
            return WireJSONWriter.encode(list)
        }
        pageTimes.append(pageTime)
        cpuTotal.pages += pageCPU
        let query = pageQuery(index)
        let (flakyTime, flakyCPU) = try Self.timed {
            let report = try store.flakyTests(query)
            flakyCounts.append(report.flaky.count)
            return WireJSONWriter.encode(report)
        }
        flakyTimes.append(flakyTime)
        cpuTotal.flaky += flakyCPU
    }

    /// The result line of `flaky-bench measure` (see main.swift), after `references` runs of the page list
    /// that scans the window's results (the query before the summaries), with a summary on stderr.
    func report(references: Int) throws -> String {
        let queries = pageTimes.count
        var naiveTimes: [Double] = []
        for _ in 0..<references {
            let (naiveTime, _) = try Self.timed {
                try WireCoding.encoder().encode(
                    try store.pages(project: "Shop", branch: "main", days: 14, now: generated.now))
            }
            naiveTimes.append(naiveTime)
        }
        pageTimes.sort()
        flakyTimes.sort()
        naiveTimes.sort()
        // The size of the answers (the 10M history lists more flaky tests per page, with more commits each).
        var answerBytes = 0
        for index in generated.pages.indices {
            answerBytes += WireJSONWriter.encode(try store.flakyTests(pageQuery(index))).count
        }
        let total = try store.flakyTests(base)
        FileHandle.standardError.write(
            Data(
                """
                \(generated.results) results: pages lists \(pageCount) pages; \(total.flaky.count) flaky and \
                \(total.broken.count) broken tests on main in 14 days; flaky?page= lists \
                \(flakyCounts.min() ?? 0)...\(flakyCounts.max() ?? 0) tests (\(answerBytes / generated.pages.count) bytes of \
                JSON on average); mean CPU per query: pages \
                \(String(format: "%.2f", cpuTotal.pages / Double(queries))) ms, flaky?page= \
                \(String(format: "%.2f", cpuTotal.flaky / Double(queries))) ms\n
                """.utf8))
        return String(
            format: "%.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %d", percentile(pageTimes, 0.5), percentile(pageTimes, 0.95),
            percentile(flakyTimes, 0.5), percentile(flakyTimes, 0.95), percentile(naiveTimes, 0.5),
            percentile(naiveTimes, 0.95), cpuTotal.pages / Double(queries), cpuTotal.flaky / Double(queries),
            answerBytes / generated.pages.count)
    }

    private func pageQuery(_ index: Int) -> FailscopeStore.FlakyQuery {
        var query = base
        query.page = generated.pages[index % generated.pages.count]
        return query
    }

    /// Wall-clock milliseconds (the measure) and thread CPU milliseconds (to see the machine's load).
    private static func timed(_ body: () throws -> Data) rethrows -> (Double, Double) {
        let cpu = threadCPU()
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try body()
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, threadCPU() - cpu)
    }

    private static func threadCPU() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
    }
}
