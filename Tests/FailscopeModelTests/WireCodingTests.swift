import Foundation
import XCTest

@testable import FailscopeModel

final class WireCodingTests: XCTestCase {
    func testResultRoundTripsWithFractionalSecondDates() throws {
        let started = Date(timeIntervalSince1970: 1_764_476_878.125)
        let result = TestResult(
            suite: "LoginTests", name: "testWrongPassword", status: .failed, startedAt: started, duration: 1.25,
            failures: [
                Failure(
                    message: "Expected error label", location: SourceLocation(file: "/src/LoginTests.swift", line: 42),
                    page: "LoginPage", action: "tapLoginExpectingError()",
                    callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40),
                    elementFrame: Frame(x: 16, y: 300, width: 361, height: 50))
            ],
            trail: [TrailStep(page: "LoginPage"), TrailStep(page: "LoginPage", action: "typeEmail(_:)")])
        let data = try WireCoding.encoder().encode(result)
        let json = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(json.contains("\"startedAt\":\"2025-11-30T04:27:58.125Z\""), json)
        let decoded = try WireCoding.decoder().decode(TestResult.self, from: data)
        XCTAssertEqual(decoded, result)
        XCTAssertEqual(decoded.pagesVisited, ["LoginPage"])
        XCTAssertEqual(decoded.failures.first?.location?.description, "LoginTests.swift:42")
    }

    func testDecoderAcceptsDatesWithoutFractionsAndRejectsOthers() throws {
        let ok = #"{"finishedAt":"2026-01-02T03:04:05Z"}"#
        let finish = try WireCoding.decoder().decode(RunFinish.self, from: Data(ok.utf8))
        XCTAssertEqual(finish.finishedAt.timeIntervalSince1970, 1_767_323_045)
        let bad = #"{"finishedAt":"yesterday"}"#
        XCTAssertThrowsError(try WireCoding.decoder().decode(RunFinish.self, from: Data(bad.utf8)))
    }

    func testSHA256MatchesKnownVectors() {
        // FIPS 180-4 test vectors.
        XCTAssertEqual(
            SHA256.hex(of: Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(of: Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertTrue(SHA256.isValidHex(SHA256.hex(of: Data("x".utf8))))
        XCTAssertFalse(SHA256.isValidHex("../../etc/passwd"))
    }

    func testRunIDValidation() {
        XCTAssertTrue(Run.isValidID("2026-11-30_abc.1"))
        XCTAssertFalse(Run.isValidID(""))
        XCTAssertFalse(Run.isValidID(".."))
        XCTAssertFalse(Run.isValidID("a/b"))
        XCTAssertFalse(Run.isValidID(String(repeating: "a", count: 65)))
    }

    func testOutcomeCountsErrorsAsFailuresAndSkipsAsNeither() {
        XCTAssertEqual(TestStatus.error.outcome, .fail)
        XCTAssertEqual(TestStatus.failed.outcome, .fail)
        XCTAssertEqual(TestStatus.passed.outcome, .pass)
        XCTAssertNil(TestStatus.skipped.outcome)
    }
}

final class DateFormattingTests: XCTestCase {
    func testTheFastFormatterAgreesWithFoundationOverCenturies() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var seconds = -2_208_988_800.0  // 1900-01-01
        while seconds < 4_102_444_800 {  // 2100-01-01
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(WireCoding.formatDate(date), date.formatted(style), "\(seconds)")
            XCTAssertEqual(WireCoding.parseDate(WireCoding.formatDate(date)), date)
            seconds += 7_777_777.125  // about every 90 days, on a millisecond-exact fraction
        }
        XCTAssertEqual(WireCoding.formatDate(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00.000Z")
        XCTAssertEqual(WireCoding.formatDate(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59.500Z")
    }

    func testEveryMillisecondFormatsBackToTheSameText() {
        // A parsed date or one made from stored milliseconds is the nearest Double, a hair below the
        // millisecond for some values: formatting must give the same text back (the CLI re-encodes the API's JSON).
        var mismatches: [String] = []
        let second = Int64(WireCoding.parseDate("2026-11-30T12:49:51Z")?.timeIntervalSince1970 ?? 0)
        XCTAssertEqual(second, 1_796_042_991)
        for millisecond in 0..<1000 {
            let text = String(format: "2026-11-30T12:49:51.%03dZ", millisecond)
            let stored = Date(timeIntervalSince1970: Double(second * 1000 + Int64(millisecond)) / 1000)
            if WireCoding.parseDate(text).map(WireCoding.formatDate) != text || WireCoding.formatDate(stored) != text {
                mismatches.append(text)
            }
        }
        XCTAssertEqual(mismatches, [])
    }
}
