import FailscopeModel
import XCTest

@testable import FailscopeImport

/// One test has one identity whichever path it arrives by: the sample UI suite's tests through JUnit (three
/// writers), xcresult JSON, the event stream, and the reporter.
final class TestIdentityTests: XCTestCase {
    private struct Identity: Hashable, CustomStringConvertible {
        var suite: String
        var name: String
        var arguments: String?

        init(_ suite: String, _ name: String, _ arguments: String? = nil) {
            self.suite = suite
            self.name = name
            self.arguments = arguments
        }

        init(_ result: TestResult) { self.init(result.suite, result.name, result.arguments) }

        var description: String { "\(suite)/\(name)" + (arguments.map { " [\($0)]" } ?? "") }
    }

    /// What the reporter records for these tests of `Tests/DemoUITests` (asserted on a real run by
    /// `ObserverRunTests`): the XCTest observer's class and method, the Swift Testing trait's suite without the
    /// module, function name and `label: value` arguments.
    private let recordedByTheReporter: [Identity] = [
        Identity("ItemTests", "testAddToCartConfirmsQuantity"),
        Identity("SwiftTestingCatalogTests", "searchFindsLamps()"),
        Identity("SwiftTestingCatalogTests", "openItemShowsItsQuantityPicker(item:)", "item: 3"),
        Identity("SwiftTestingCatalogTests", "openItemShowsItsQuantityPicker(item:)", "item: 7"),
    ]

    private func identities(_ file: String) throws -> Set<Identity> {
        Set(
            try ReportImporter().parse(fileAt: ExecutionRulesTests.fixture("identity/" + file)).results.map(
                Identity.init))
    }

    func testTheSameTestHasOneIdentityThroughEveryPath() throws {
        let reporter = Set(recordedByTheReporter)
        // Each path carries some of the tests; each must name them as the reporter does.
        let paths: [(String, Int)] = [
            ("xcpretty.junit.xml", 1), ("swiftpm.junit.xml", 2), ("trainer.junit.xml", 4),
            ("xcresult.tests.json", 4), ("events.jsonl", 3),
        ]
        for (file, count) in paths {
            let imported = try identities(file)
            XCTAssertEqual(imported.count, count, "\(file): \(imported)")
            XCTAssertTrue(
                imported.isSubset(of: reporter), "\(file): \(imported.subtracting(reporter)) not the reporter's")
        }
        XCTAssertEqual(try identities("trainer.junit.xml"), try identities("xcresult.tests.json"))
    }

    func testSuiteNormalisation() {
        XCTAssertEqual(ReportIdentity.suite("MyTests.CatalogTests", hasModulePrefix: true), "CatalogTests")
        XCTAssertEqual(ReportIdentity.suite("MyTests.Outer.Inner", hasModulePrefix: true), "Outer.Inner")
        XCTAssertEqual(ReportIdentity.suite("CatalogTests", hasModulePrefix: true), "CatalogTests")
        XCTAssertEqual(ReportIdentity.suite("Outer.Inner", hasModulePrefix: false), "Outer.Inner")
        XCTAssertEqual(EventStreamBuilder.split("MyTests.Outer/Inner/f()/File.swift:3:4").suite, "Outer.Inner")
        XCTAssertEqual(EventStreamBuilder.split("MyTests/freeFunction()/File.swift:3:4").suite, "MyTests")
    }

    func testNameNormalisation() {
        XCTAssertEqual(ReportIdentity.name("testSearch()"), "testSearch")
        XCTAssertEqual(ReportIdentity.name("testSearch"), "testSearch")
        XCTAssertEqual(ReportIdentity.name("searchFindsLamps()"), "searchFindsLamps()")
        XCTAssertEqual(ReportIdentity.name("testSelect(color:)"), "testSelect(color:)")
        XCTAssertEqual(ReportIdentity.name("test with spaces()"), "test with spaces()")
    }

    func testArgumentsGetTheFunctionsLabels() {
        XCTAssertEqual(ReportIdentity.arguments("3", function: "open(item:)"), "item: 3")
        XCTAssertEqual(
            ReportIdentity.arguments(".viewer, false, true", function: "canEdit(role:isOwner:expected:)"),
            "role: .viewer, isOwner: false, expected: true")
        XCTAssertEqual(
            ReportIdentity.arguments("\"a, b\", [1, 2]", function: "f(text:list:)"), "text: \"a, b\", list: [1, 2]")
        XCTAssertEqual(ReportIdentity.arguments("item: 3", function: "open(item:)"), "item: 3")
        XCTAssertEqual(ReportIdentity.arguments("1, 2", function: "open(item:)"), "1, 2", "counts differ: as it is")
        XCTAssertEqual(ReportIdentity.arguments("(min: 0, max: 10)", function: "Test ranges"), "(min: 0, max: 10)")
    }

    func testModulePrefixNeedsASignInTheReport() throws {
        // xcpretty names the bundle; Valid1-x style names the bundle as the suite; xcresult converters nest
        // Swift Testing suites without a module.
        let bundle = try JUnitImporter().parse(
            data: Data(
                """
                <testsuites name="Smack(10)UITests.xctest"><testsuite name="Smack_10_UITests.Stub">
                <testcase classname="Smack_10_UITests.Stub" name="testAdd"/></testsuite></testsuites>
                """.utf8))
        XCTAssertEqual(bundle.results.first?.suite, "Stub")
        let suiteIsBundle = try JUnitImporter().parse(
            data: Data("<testsuite name='Unit'><testcase classname='Unit.Unit' name='testExample'/></testsuite>".utf8))
        XCTAssertEqual(suiteIsBundle.results.first?.suite, "Unit")
        let nested = try JUnitImporter().parse(
            data: Data(
                """
                <testsuites><testsuite name="AppTests"><testsuite name="Posts">
                <testcase classname="ContentTests.PostTests" name="Post length"/></testsuite></testsuite></testsuites>
                """.utf8))
        XCTAssertEqual(nested.results.first?.suite, "ContentTests.PostTests")
    }
}
