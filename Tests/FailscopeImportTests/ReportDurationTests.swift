import XCTest

@testable import FailscopeImport

final class ReportDurationTests: XCTestCase {
    func testPlainAndScientificNotation() {
        XCTAssertEqual(ReportDuration.seconds("0.5"), 0.5)
        XCTAssertEqual(ReportDuration.seconds(" 16.05245804786682 "), 16.05245804786682)
        XCTAssertEqual(ReportDuration.seconds("1.4e-05")!, 0.000014, accuracy: 1e-12)
        XCTAssertEqual(ReportDuration.seconds("5.1E-5")!, 0.000051, accuracy: 1e-12)
    }

    func testDecimalCommaAndThousandsSeparators() {
        XCTAssertEqual(ReportDuration.seconds("0,160")!, 0.160, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("0,03")!, 0.03, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("1,234.245")!, 1234.245, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("14,029.255")!, 14029.255, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("14.029,255")!, 14029.255, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("1,234,567")!, 1_234_567, accuracy: 1e-9)
    }

    func testXcresultDurationStrings() {
        XCTAssertEqual(ReportDuration.seconds("0,00045s")!, 0.00045, accuracy: 1e-12)
        XCTAssertEqual(ReportDuration.seconds("0,26s")!, 0.26, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("1m 3,01s")!, 63.01, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("1m 3.01s")!, 63.01, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("6m"), 360)
        XCTAssertEqual(ReportDuration.seconds("1h 2m"), 3720)
        XCTAssertEqual(ReportDuration.seconds("Ran for 2,6 seconds")!, 2.6, accuracy: 1e-9)
        XCTAssertEqual(ReportDuration.seconds("150ms")!, 0.15, accuracy: 1e-9)
    }

    func testUnreadableIsUnknownNotZero() {
        XCTAssertNil(ReportDuration.seconds(nil))
        XCTAssertNil(ReportDuration.seconds(""))
        XCTAssertNil(ReportDuration.seconds("<<computed>>"))
        XCTAssertNil(ReportDuration.seconds("NaN"))
        XCTAssertNil(ReportDuration.seconds("-1"))
        XCTAssertNil(ReportDuration.seconds("3 fortnights"))
    }
}
