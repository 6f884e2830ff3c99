import XCTest

@testable import FailscopeImport

final class ReportImporterTests: XCTestCase {
    private func detect(_ text: String) -> Result<ReportFormat, ReportImporter.Rejection> {
        ReportImporter.detectFormat(head: Data(text.utf8))
    }

    func testFormatComesFromTheContent() {
        XCTAssertEqual(try detect("\u{FEFF}<?xml version='1.0'?>\n<!-- x --><testsuites/>").get(), .junit)
        XCTAssertEqual(try detect("  <testsuite name='a'>").get(), .junit)
        XCTAssertEqual(try detect(#"{"kind":"test","payload":{},"version":0}"# + "\n{").get(), .swiftTestingEventStream)
        XCTAssertEqual(try detect(#"{ "devices": [], "testNodes": [] }"#).get(), .xcresultTests)
        XCTAssertEqual(try detect(#"{"_type":{"_name":"ActionTestPlanRunSummaries"}}"#).get(), .xcresultLegacy)
    }

    func testOtherContentIsRejectedWithTheReason() {
        func reason(_ text: String) -> String {
            if case .failure(let rejection) = detect(text) { return rejection.text }
            return "accepted"
        }
        XCTAssertEqual(reason(""), "the file is empty")
        XCTAssertTrue(reason("<suites><suite/></suites>").contains("XML root is <suites>"))
        XCTAssertTrue(reason("<testExecutions version='1'>").contains("SonarQube"))
        XCTAssertTrue(reason("Test Case '-[A b]' started.").contains("console log"))
        XCTAssertTrue(reason("hello").contains("plain text"))
        XCTAssertTrue(reason(#"{"a": 1}"#).contains("JSON without"))
    }

    func testFileErrorsNameTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-detect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("report.json").path
        try Data("<testsuite name='S'><testcase classname='S' name='t'/></testsuite>".utf8).write(
            to: URL(fileURLWithPath: path))
        XCTAssertEqual(
            try ReportImporter().parse(fileAt: path).summary.tests, 1, "a .json extension holding JUnit is JUnit")
        XCTAssertThrowsError(try ReportImporter().parse(fileAt: folder.appendingPathComponent("missing.xml").path)) {
            error in
            XCTAssertTrue(
                (error as! ImportError).description.hasSuffix("missing.xml: cannot open the file for reading"))
        }
    }
}
