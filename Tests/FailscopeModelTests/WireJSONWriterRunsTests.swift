import FailscopeModel
import Foundation
import XCTest

/// The run answers' fast writer (`WireJSONWriter+Runs`) against `WireCoding.encoder()`.
final class WireJSONWriterRunsTests: XCTestCase {
    /// The fast writer's bytes equal `WireCoding.encoder()`'s for the same run page and run comparison, hostile
    /// text included.
    func testFastWriterMatchesJSONEncoderByteForByte() throws {
        let hostile = "\"quoted\" \\back\\ /slash/ \n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F} <script>é 👋 \u{2028}\u{2029}"
        var run = Run(
            id: "run-1", project: "Shop", branch: hostile, commit: "abc", device: "iPhone 15", osVersion: "iOS 17",
            ciProvider: "gh", ciBuildURL: "https://ci/1", ciJob: "ui", source: .junit,
            startedAt: Date(timeIntervalSince1970: 1_764_400_000.123),
            finishedAt: Date(timeIntervalSince1970: 1_764_400_100))
        let durations: [Double?] = [nil, 0, 0.5, 1.25, 1e-7, 123_456.789, 2, 1e20, 0.1 + 0.2]
        let results = durations.enumerated().map { index, duration in
            ResultSummary(
                id: index + 1, runId: "run-1", testId: String(repeating: "a", count: 32), suite: "S\(index)",
                name: index == 0 ? hostile : "t\(index)", arguments: index % 2 == 0 ? nil : "x: \(index)",
                device: index % 3 == 0 ? nil : "iPad", attempt: index + 1, status: index % 2 == 0 ? .failed : .passed,
                startedAt: index % 2 == 0 ? nil : Date(timeIntervalSince1970: 1_764_400_000 + Double(index) * 0.001),
                duration: duration, page: index % 4 == 0 ? nil : "LoginPage",
                callSite: index % 3 == 0 ? nil : SourceLocation(file: "/src/\(hostile).swift", line: index),
                message: index % 2 == 0 ? hostile : nil,
                screenshot: index % 2 == 0 ? String(repeating: "b", count: 64) : nil, quarantined: index % 4 == 2)
        }
        let detail = RunDetail(
            summary: RunSummary(
                run: run, status: .failed,
                counts: ResultCounts(total: 9, passed: 4, failed: 5, failingTests: 3, quarantinedFailingTests: 3)),
            pages: [
                .init(
                    page: "LoginPage", counts: ResultCounts(total: 5),
                    callSites: [
                        .init(callSite: SourceLocation(file: "/a.swift", line: 1), results: Array(results.prefix(5))),
                        .init(callSite: nil, results: Array(results.suffix(4))),
                    ]),
                .init(page: nil, counts: ResultCounts(), callSites: []),
            ])
        let expected = try WireCoding.encoder().encode(detail)
        XCTAssertEqual(
            String(decoding: WireJSONWriter.encode(detail), as: UTF8.self), String(decoding: expected, as: UTF8.self))
        // A comparison with every list filled from these results (ids 1...9), hostile text included.
        func attempt(
            _ id: Int, _ test: String, _ status: TestStatus, _ duration: Double? = nil, number: Int = 1,
            quarantined: Bool = false
        ) -> RunComparison.Attempt {
            .init(
                id: id, testId: test, device: nil, attempt: number, status: status, duration: duration,
                quarantined: quarantined)
        }
        let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.id, $0) })
        let comparison = RunComparison(
            run: detail.summary,
            attempts: [
                attempt(1, "new failure", .failed), attempt(2, "slower", .passed, 2.5), attempt(3, "fixed", .passed),
                attempt(4, "still", .error), attempt(5, "forgiven", .failed, quarantined: true),
                attempt(6, "retried", .passed, number: 2), attempt(60, "retried", .failed),
                attempt(7, "added", .passed),
            ], base: detail.summary,
            baseAttempts: [
                attempt(101, "new failure", .passed), attempt(102, "slower", .passed, 1),
                attempt(103, "fixed", .failed),
                attempt(104, "still", .failed), attempt(105, "forgiven", .passed), attempt(106, "retried", .passed),
                attempt(8, "gone", .passed), attempt(9, "gone too", .skipped),
            ], summaries: { ids in byID.filter { ids.contains($0.key) } })
        XCTAssertEqual(
            [
                comparison.newFailures, comparison.durationChanges.map(\.result), comparison.fixed,
                comparison.stillFailing,
                comparison.quarantined, comparison.flaky, comparison.newTests, comparison.removedTests,
            ].map { $0.map(\.id) },
            [[1], [2], [3], [4], [5], [6], [7], [8, 9]])
        XCTAssertEqual(
            String(decoding: WireJSONWriter.encode(comparison), as: UTF8.self),
            String(decoding: try WireCoding.encoder().encode(comparison), as: UTF8.self))
        let empty = RunComparison(
            run: detail.summary, attempts: [], base: nil, baseAttempts: [], summaries: { _ in [:] })
        XCTAssertEqual(WireJSONWriter.encode(empty), try WireCoding.encoder().encode(empty), "no base: no key")
        run.branch = nil
        run.finishedAt = nil
        let minimal = RunDetail(summary: RunSummary(run: run, status: .incomplete, counts: ResultCounts()), pages: [])
        XCTAssertEqual(WireJSONWriter.encode(minimal), try WireCoding.encoder().encode(minimal))
    }
}
