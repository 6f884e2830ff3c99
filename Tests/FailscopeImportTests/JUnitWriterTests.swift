import FailscopeImport
import FailscopeModel
import Foundation
import XCTest

/// `JUnitWriter` writes what `JUnitImporter` reads back to the same results.
final class JUnitWriterTests: XCTestCase {
    private let started = Date(timeIntervalSince1970: 1_764_400_000)

    private func sampleResults() -> [TestResult] {
        [
            TestResult(suite: "LoginTests", name: "testLogin", status: .passed, startedAt: started, duration: 1.25),
            TestResult(
                suite: "LoginTests", name: "testWrongPassword", device: "iPhone 15", attempt: 1, status: .failed,
                duration: 2,
                failures: [
                    Failure(
                        message: "expected \"Wrong\" & got <nothing>\nsecond line",
                        location: SourceLocation(file: "/src/LoginTests.swift", line: 42))
                ]),
            TestResult(
                suite: "LoginTests", name: "testWrongPassword", device: "iPhone 15", attempt: 2, status: .passed,
                duration: 1.5),
            TestResult(
                suite: "CatalogTests", name: "openItem(item:)", arguments: "item: 3", status: .error,
                failures: [Failure(message: "the test process crashed: signal 4 (SIGILL)", isError: true)]),
            TestResult(
                suite: "CatalogTests", name: "openItem(item:)", arguments: "item: 7", status: .passed, duration: 0.5),
            TestResult(
                suite: "TabletTests", name: "testColumns", status: .skipped, skipReason: "Tablet-only \u{7} test"),
        ]
    }

    func testWhatItWritesImportsAsTheSameResults() throws {
        let xml = JUnitWriter.write(sampleResults(), name: "run-1")
        let report = try JUnitImporter().parse(data: xml, name: "export.xml")
        XCTAssertEqual(report.warnings, [])
        let key = { (result: TestResult) in
            "\(result.suite).\(result.name) [\(result.arguments ?? "-")] \(result.device ?? "-") "
                + "#\(result.attempt) \(result.status.rawValue)"
        }
        XCTAssertEqual(report.results.map(key), sampleResults().map(key))
        let failure = try XCTUnwrap(report.results[1].failures.first)
        XCTAssertEqual(failure.message, "expected \"Wrong\" & got <nothing>\nsecond line")
        XCTAssertEqual(failure.location, SourceLocation(file: "/src/LoginTests.swift", line: 42))
        XCTAssertEqual(report.results[0].duration, 1.25)
        XCTAssertEqual(report.results[3].failures.first?.message, "the test process crashed: signal 4 (SIGILL)")
        XCTAssertEqual(report.results[5].skipReason, "Tablet-only \u{FFFD} test", "XML 1.0 cannot carry BEL")
        XCTAssertEqual(report.tests.filter(\.isFlaky).count, 1, "the retry that passed")
    }

    func testTheHeadersCountTheCases() throws {
        let xml = String(decoding: JUnitWriter.write(sampleResults(), name: "run-1"), as: UTF8.self)
        XCTAssertTrue(
            xml.contains(#"<testsuites name="run-1" tests="6" failures="1" errors="1" skipped="1" time="5.250">"#), xml)
        XCTAssertTrue(xml.contains(#"<testsuite name="CatalogTests" tests="2" failures="0" errors="1""#), xml)
        XCTAssertTrue(xml.contains(#"<property name="repetition" value="Retry 2"/>"#))
    }
}
