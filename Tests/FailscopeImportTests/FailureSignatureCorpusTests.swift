import FailscopeModel
import XCTest

@testable import FailscopeImport

/// Failure signatures of real failures from the shared corpus (read in place, see `CorpusTests.casesFolder`):
/// the failures that are one error must share a signature, those that are not must not.
final class FailureSignatureCorpusTests: XCTestCase {
    /// The failures of `file` whose message contains `text`, as imported.
    private func failures(_ file: String, containing text: String) throws -> [Failure] {
        guard let root = CorpusTests.casesFolder else {
            throw XCTSkip("the shared report corpus (../shared/cases or FAILSCOPE_CASES) is absent; skipped")
        }
        let report = try ReportImporter().parse(fileAt: root + "/" + file)
        return report.results.flatMap(\.failures).filter { $0.message.contains(text) }
    }

    func testOneAssertionWithOtherValuesIsOneError() throws {
        // Swift Testing: the same expectation with another argument (16 vs 11, two quoted passwords).
        let passwords = try failures(
            "xcresult-json/fastlane__Xcode16-Mixed-XCTest-SwiftTesting.tests.json", containing: "password.count")
        XCTAssertEqual(Set(passwords.map(\.message)).count, 2, "two distinct messages in the corpus")
        XCTAssertEqual(Set(passwords.map { FailureSignature(of: $0) }).count, 1)
        // A parameterized test's two cases: the captured values differ (true/false), the expectation is one.
        let permissions = try failures("issues/13b_parameterized-arguments-nodes.tests.json", containing: "canEdit")
        XCTAssertEqual(Set(permissions.map(\.message)).count, 2)
        XCTAssertEqual(Set(permissions.map { FailureSignature(of: $0).id }).count, 1)
    }

    func testOtherAssertionsAreOtherErrors() throws {
        let file = "xcresult-json/fastlane__Xcode16-Mixed-XCTest-SwiftTesting.tests.json"
        // Two expectations on counts, other expressions at other lines.
        let inputCount = try XCTUnwrap(try failures(file, containing: "input.count").first)
        let longPost = try XCTUnwrap(try failures(file, containing: "longPost.count").first)
        XCTAssertNotEqual(FailureSignature(of: inputCount), FailureSignature(of: longPost))
        // The same words at 25 lines of one file: 25 assertions.
        let atomicBoy = try failures("junit/trunk__test-ExpectedFailures.junit.xml", containing: "((false) is true) failed")
        XCTAssertEqual(atomicBoy.count, 25)
        XCTAssertEqual(Set(atomicBoy.map { FailureSignature(of: $0).id }).count, 25)
        // Messages that differ in a word, not a value.
        let timeouts = try failures("junit-variants/mikepenz__multiple_failures_test_multiple_errors.xml", containing: "timeout")
        let messages = timeouts.map { FailureSignature(of: $0).message }.sorted()
        XCTAssertEqual(messages.count, 2)
        XCTAssertTrue(messages[0].hasPrefix("First timeout"), messages[0])
        XCTAssertNotEqual(messages[0], messages[1])
        // The two differ in that word only (their line numbers are values).
        XCTAssertEqual(messages[1].replacingOccurrences(of: "Second", with: "First"), messages[0])
    }
}
