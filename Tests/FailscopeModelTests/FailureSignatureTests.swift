import FailscopeModel
import XCTest

/// The normalization rules of `FailureSignature`, one message per rule, on the messages' real shapes.
final class FailureSignatureTests: XCTestCase {
    private func normalized(_ message: String) -> String { FailureSignature.normalize(message) }

    func testEachVariablePartBecomesItsPlaceholder() {
        XCTAssertEqual(
            normalized("Expectation failed: (password.count → 16) < 8\nPassword 'thisislongenough' is too short"),
            "Expectation failed: (password.count → …) < <n> Password \"…\" is too short")
        XCTAssertEqual(
            normalized("No order 7C2AC071-3FAE-4370-9C3D-2B1A11112222 for user_42"), "No order <uuid> for user_<n>")
        XCTAssertEqual(normalized("EXC_BAD_ACCESS at 0x7ff8a3b2c010"), "EXC_BAD_ACCESS at 0x…")
        XCTAssertEqual(normalized("snapshot a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 differs"), "snapshot <hex> differs")
        XCTAssertEqual(
            normalized("XCTAssertTrue failed -  (/Users/liamnichols/Code/Local/Trainer/Unit/Unit.swift:19)"),
            "XCTAssertTrue failed - (Unit.swift:<n>)")
        XCTAssertEqual(normalized("Timed out after 3.5s waiting 1,000 ms (-2)"), "Timed out after <n>s waiting <n> ms (<n>)")
        XCTAssertEqual(normalized("Failed to tap “Apply” Button"), "Failed to tap \"…\" Button")
    }

    func testNamesWithDigitsAndApostrophesStay() {
        XCTAssertEqual(normalized("Int64 overflow on iPhone15 in utf8"), "Int64 overflow on iPhone15 in utf8")
        XCTAssertEqual(normalized("This won't make the cut"), "This won't make the cut")
        XCTAssertEqual(normalized("First timeout"), "First timeout")
        XCTAssertNotEqual(normalized("First timeout"), normalized("Second timeout"))
        // Slashes outside a path to a file (markup, fractions of a URL) stay.
        XCTAssertEqual(
            normalized("got </script><script>alert(1)</script> & <b>bold</b>"),
            "got </script><script>alert(<n>)</script> & <b>bold</b>")
        XCTAssertEqual(normalized("GET https://api.example/v1/items/42 failed"), "GET https://api.example/v1/items/<n> failed")
    }

    func testLongMessagesAreCutAndWhiteSpaceCollapsed() {
        XCTAssertEqual(normalized("  a \t\n b  "), "a b")
        let long = String(repeating: "word.", count: 20_000)
        XCTAssertEqual(normalized(long).count, FailureSignature.messageLimit)
    }

    func testLocationIsTheFailureLocationElseTheCallSite() {
        let failure = Failure(
            message: "Button \"Apply\" not hittable", location: SourceLocation(file: "/ci/a/CartUITests.swift", line: 77),
            callSite: SourceLocation(file: "/ci/a/CartUITests.swift", line: 12))
        let signature = FailureSignature(of: failure)
        XCTAssertEqual(signature.location, "CartUITests.swift:77")
        XCTAssertEqual(signature.message, "Button \"…\" not hittable")
        XCTAssertEqual(signature.id.count, 32)
        // Another checkout path and another quoted value: the same error.
        var elsewhere = failure
        elsewhere.message = "Button \"Checkout\" not hittable"
        elsewhere.location?.file = "/Users/me/src/CartUITests.swift"
        XCTAssertEqual(FailureSignature(of: elsewhere), signature)
        // XCTest's `<EXPR>:0`: the call site says where.
        let noLine = Failure(
            message: "crashed", location: SourceLocation(file: "<EXPR>", line: 0),
            callSite: SourceLocation(file: "LoginTests.swift", line: 30))
        XCTAssertEqual(FailureSignature(of: noLine).location, "LoginTests.swift:30")
        // Another line: another error.
        var otherLine = failure
        otherLine.location?.line = 78
        XCTAssertNotEqual(FailureSignature(of: otherLine).id, signature.id)
    }

    func testOnlyFailingResultsHaveOne() {
        let failure = Failure(message: "x")
        XCTAssertNil(FailureSignature(of: TestResult(suite: "S", name: "t", status: .passed)))
        XCTAssertNil(FailureSignature(of: TestResult(suite: "S", name: "t", status: .failed)))
        XCTAssertNil(FailureSignature(of: TestResult(suite: "S", name: "t", status: .expectedFailure, failures: [failure])))
        XCTAssertEqual(
            FailureSignature(of: TestResult(suite: "S", name: "t", status: .error, failures: [failure]))?.message, "x")
    }
}
