import Foundation
import XCTest

@testable import FailscopeModel

final class WireJSONWriterTests: XCTestCase {
    static let hostile = "\"quoted\" \\back\\ /slash/ \n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F} <script>é 👋 \u{2028}\u{2029}"

    /// Results with every optional present and absent, hostile text and awkward numbers: the writer's
    /// bytes equal `WireCoding.encoder()`'s.
    func testResultBatchMatchesJSONEncoderByteForByte() throws {
        let hostile = Self.hostile
        let numbers: [Double?] = [nil, 0, 0.5, 1.25, 1e-7, 123_456.789, 2, 1e20, 0.1 + 0.2, -3.5]
        let results = numbers.enumerated().map { index, number in
            TestResult(
                suite: index == 1 ? hostile : "Suite\(index)", name: index == 0 ? hostile : "test\(index)",
                arguments: index % 2 == 0 ? nil : "x: \(index)", device: index % 3 == 0 ? nil : "iPad (10th generation)",
                attempt: index + 1, status: TestStatus.allCases[index % TestStatus.allCases.count],
                skipReason: index % 4 == 3 ? hostile : nil,
                startedAt: index % 2 == 0 ? nil : Date(timeIntervalSince1970: 1_764_400_000 + Double(index) * 0.001),
                duration: number,
                failures: index % 2 == 1
                    ? []
                    : [
                        Failure(
                            message: hostile, location: SourceLocation(file: "/src/\(hostile).swift", line: index),
                            page: index % 4 == 0 ? nil : "LoginPage", action: index % 3 == 0 ? nil : "LoginPage.tap()",
                            callSite: index % 3 == 0 ? nil : SourceLocation(file: "/src/LoginTests.swift", line: 40),
                            elementFrame: number.map { Frame(x: $0, y: 300, width: 361.5, height: 1e-3) },
                            isError: index % 4 == 2),
                        Failure(message: ""),
                    ],
                trail: index % 3 == 2
                    ? []
                    : [
                        TrailStep(page: "LoginPage"),
                        TrailStep(
                            page: hostile, action: "typeEmail(_:)",
                            callSite: SourceLocation(file: "/src/LoginTests.swift", line: -1),
                            elementTree: index % 2 == 0 ? String(repeating: "b", count: 64) : nil,
                            target: number.map { Frame(x: 16, y: $0, width: 361, height: 50) },
                            duration: number),
                    ],
                artifacts: index % 2 == 1
                    ? []
                    : [
                        ArtifactRef(
                            sha256: String(repeating: "a", count: 64), kind: .screenshot, byteCount: 107_336,
                            width: 1179, height: 2556),
                        ArtifactRef(sha256: String(repeating: "b", count: 64), kind: .elementTree, byteCount: 12),
                    ],
                systemOut: index == 4 ? hostile : nil, systemErr: index == 6 ? "" : nil)
        }
        for batch in [ResultBatch(results: results), ResultBatch(results: [])] {
            let expected = try WireCoding.encoder().encode(batch)
            XCTAssertEqual(
                String(decoding: WireJSONWriter.encode(batch), as: UTF8.self), String(decoding: expected, as: UTF8.self))
        }
    }

    /// Flaky answers with hostile text, optionals present and absent, empty lists: the same bytes as
    /// `JSONEncoder`.
    func testFlakyAnswersMatchJSONEncoderByteForByte() throws {
        let hostile = Self.hostile
        let at = Date(timeIntervalSince1970: 1_764_400_000.125)
        let link = FailureLink(resultId: 7, runId: hostile, ranAt: at, screenshot: String(repeating: "c", count: 64))
        let flaky = [nil, 0.1 + 0.2, 1].enumerated().map { index, flipRate in
            FlakyTest(
                testId: String(repeating: "a", count: 32), project: "Shop", suite: hostile, name: "test\(index)",
                arguments: index == 1 ? hostile : nil, branch: index == 2 ? "" : "main",
                reasons: index == 0 ? [] : FlakyReason.allCases, flipRate: flipRate, flips: index * 3, sampleCount: 30,
                passCount: 20 - index, failCount: 10 + index,
                contradictingCommits: (0..<index).map {
                    ContradictingCommit(commit: "c\($0)", passes: $0, fails: 1, seenAt: at.addingTimeInterval(Double($0)))
                }, contradictingCommitCount: index * 5, firstFlakyFailureAt: index == 0 ? nil : at,
                lastFlakyFailureAt: index == 0 ? nil : at.addingTimeInterval(86_400),
                pages: [
                    FlakyPageCount(page: hostile, suite: nil, failureCount: 3, lastFailureAt: at),
                    FlakyPageCount(page: FlakyReport.noPage, suite: "LoginTests", failureCount: 1, lastFailureAt: at),
                ],
                callSites: index == 1
                    ? []
                    : [
                        FlakyCallSite(
                            file: "/src/\(hostile).swift", line: 40, page: "LoginPage", totalFailureCount: 2,
                            lastFailureAt: at)
                    ], devices: [DeviceCount(device: hostile, failureCount: 4)],
                newestFailure: index == 2 ? nil : link)
        }
        let broken = [
            BrokenTest(
                testId: "b", project: "Shop", suite: "S", name: hostile, arguments: nil, branch: "main", commit: "abc",
                failCount: 3, newestFailure: link),
            BrokenTest(
                testId: "b2", project: "Shop", suite: "S", name: "n", arguments: "x: 1", branch: "main", commit: "",
                failCount: 2, newestFailure: nil),
        ]
        let reports = [
            FlakyReport(
                since: at, days: 14, project: "Shop", branch: "main", device: hostile, page: "LoginPage", suite: nil,
                policy: .standard, flaky: flaky, broken: broken),
            FlakyReport(
                since: at, days: 1, project: nil, branch: nil, device: nil, page: FlakyReport.noPage, suite: hostile,
                policy: FlakyPolicy(flipRateThreshold: 0.25), flaky: [], broken: []),
        ]
        for report in reports {
            XCTAssertEqual(
                String(decoding: WireJSONWriter.encode(report), as: UTF8.self),
                String(decoding: try WireCoding.encoder().encode(report), as: UTF8.self))
        }
        let list = FlakyPageList(
            since: at,
            pages: [
                FlakyPageSummary(
                    page: hostile, suite: nil, resultCount: 100, failureCount: 5, failingTestCount: 2, lastFailureAt: at,
                    flakyTestCount: 1, flakyFailureCount: 3, lastFlakyFailureAt: at,
                    devices: [DeviceCount(device: "iPad", failureCount: 2), DeviceCount(device: "", failureCount: 1)]),
                FlakyPageSummary(
                    page: FlakyReport.noPage, suite: "LoginTests", resultCount: 1, failureCount: 0, failingTestCount: 0,
                    lastFailureAt: nil, flakyTestCount: 0, flakyFailureCount: 0, lastFlakyFailureAt: nil, devices: []),
            ])
        for value in [list, FlakyPageList(since: at, pages: [])] {
            XCTAssertEqual(
                String(decoding: WireJSONWriter.encode(value), as: UTF8.self),
                String(decoding: try WireCoding.encoder().encode(value), as: UTF8.self))
        }
    }

    func testEmptyObjectAndNonFiniteNumbers() {
        var json = WireJSONWriter()
        json.array([Double.nan, .infinity, 1]) { json, value in
            json.object { keys in keys.number("n", value == 1 ? nil : value) }
        }
        XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self), #"[{"n":null},{"n":null},{}]"#)
    }
}
