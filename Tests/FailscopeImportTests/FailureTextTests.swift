import FailscopeModel
import XCTest

@testable import FailscopeImport

final class FailureTextTests: XCTestCase {
    func testXcodeURLFragmentGivesLineAndLeavesTheMessage() {
        let located = FailureText.locate(
            message:
                "XCTAssertTrue failed (/Users/ci/App/LoginTests.swift#CharacterRangeLen=0&EndingLineNumber=36&StartingLineNumber=36)",
            text: nil)
        XCTAssertEqual(located.location, SourceLocation(file: "/Users/ci/App/LoginTests.swift", line: 36))
        XCTAssertEqual(located.message, "XCTAssertTrue failed")
    }

    func testFileLineInParenthesesAtTheEnd() {
        let located = FailureText.locate(message: "XCTAssertTrue failed -  (/src/Unit/Unit.swift:19)", text: "")
        XCTAssertEqual(located.location, SourceLocation(file: "/src/Unit/Unit.swift", line: 19))
        XCTAssertEqual(located.message, "XCTAssertTrue failed")
    }

    func testFileLinePrefixOfTheMessage() {
        let located = FailureText.locate(message: "CartTests.swift:77: Failed to tap \"Apply\" Button", text: nil)
        XCTAssertEqual(located.location, SourceLocation(file: "CartTests.swift", line: 77))
        XCTAssertEqual(located.message, "Failed to tap \"Apply\" Button")
        let dashed = FailureText.locate(
            message: "/w/Tests/CaptureTests.swift:34 - XCTAssertTrue failed - True is never false.", text: nil)
        XCTAssertEqual(dashed.location?.line, 34)
        XCTAssertEqual(dashed.message, "XCTAssertTrue failed - True is never false.")
    }

    func testLocationOnlyInTheText() {
        let located = FailureText.locate(
            message: "No matches found for Find: Elements", text: "\n  BaseScreen.swift:29\n")
        XCTAssertEqual(located.location, SourceLocation(file: "BaseScreen.swift", line: 29))
        XCTAssertEqual(located.message, "No matches found for Find: Elements")
    }

    func testAttributesWinAndPercentEncodingIsDecoded() {
        let located = FailureText.locate(
            message: "boom", text: nil, file: "/src/swift%20testing%20example/A.swift", line: "12")
        XCTAssertEqual(located.location, SourceLocation(file: "/src/swift testing example/A.swift", line: 12))
    }

    func testBareFileNameCompletedFromTheTestCaseFile() {
        let located = FailureText.locate(
            message: "swift_testing_exampleTests.swift:19: Expectation failed", text: nil,
            testFile: "/Users/w/swift%20testing%20example/Tests/swift_testing_exampleTests.swift")
        XCTAssertEqual(
            located.location,
            SourceLocation(file: "/Users/w/swift testing example/Tests/swift_testing_exampleTests.swift", line: 19))
        XCTAssertEqual(located.message, "Expectation failed")
    }

    func testUnknownFileIsNoLocation() {
        let located = FailureText.locate(
            message: nil, text: "Assertion Failure: <unknown>:0: Application is not running")
        XCTAssertNil(located.location)
        XCTAssertEqual(located.message, "Assertion Failure: <unknown>:0: Application is not running")
    }

    func testNumbersThatAreNotSourceLocationsAreIgnored() {
        let located = FailureText.locate(message: "expected 10:30 but got elementID: 1405.56:2", text: nil)
        XCTAssertNil(located.location)
    }

    func testTypeOnlyMessageGivesWayToTheText() {
        let located = FailureText.locate(
            message: "Uncategorized: Tests.testConvert()", text: "failed - Unable to convert (Tests.swift:109)",
            type: "Uncategorized")
        XCTAssertEqual(located.message, "failed - Unable to convert")
        XCTAssertEqual(located.location?.line, 109)
    }
}
