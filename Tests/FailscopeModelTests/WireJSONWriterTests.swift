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
                            callSite: SourceLocation(file: "/src/LoginTests.swift", line: -1)),
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

    func testEmptyObjectAndNonFiniteNumbers() {
        var json = WireJSONWriter()
        json.array([Double.nan, .infinity, 1]) { json, value in
            json.object { keys in keys.number("n", value == 1 ? nil : value) }
        }
        XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self), #"[{"n":null},{"n":null},{}]"#)
    }
}
