import FailscopeReporter
import Foundation
import PageObjects
import SimulatedUI
import XCTest

/// A page over the simulated screen's `ProbeApp`, as a UI suite writes one.
final class ProbePage: BasePage, Page {
    private var greeting: SimulatedElement { app.staticTexts["probe.greeting"] }
    private var next: SimulatedElement { app.buttons["probe.next"] }

    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: greeting, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyGreeting(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: greeting, equals: text, file: file, line: line)
        return self
    }

    @discardableResult
    func tapNext(file: StaticString = #filePath, line: UInt = #line) -> Self {
        tap(next, file: file, line: line)
        return self
    }

    @discardableResult
    func tapMissing(file: StaticString = #filePath, line: UInt = #line) -> Self {
        app.buttons["probe.missing"].tap(file: file, line: line)
        return self
    }
}

final class ProbeApp: AppProgram {
    var count = 0
    init(context: AppContext) {}

    func body() -> AppScreen {
        AppScreen(
            navigationBar: NavigationBar(title: "Probe"),
            content: [
                .text("Hello \(count)", id: "probe.greeting"),
                .button("Next", id: "probe.next") { [self] in count += 1 },
            ])
    }
}

/// The test case run inside the test below: its failures are what XCTest reports for a real test.
final class ProbeTestCase: UITestCase {
    static let assertionLine = #line + 5
    static let missingLine = #line + 9

    override func makeApp(on device: Device) -> SimulatedApp { SimulatedApp(ProbeApp.self, device: device) }

    func probeFailingAssertion() {
        ProbePage(app: app).verifyShown().tapNext().verifyGreeting("Hello 2").tapNext()
    }

    func probeMissingElement() {
        ProbePage(app: app).verifyShown().tapNext()
            .tapMissing()
    }
}

/// A UI test case that forgot `makeApp(on:)`.
final class UnconfiguredTestCase: UITestCase {
    func probe() {}
}

/// Collects the failures XCTest reports while observing.
final class FailureObserver: NSObject, XCTestObservation, @unchecked Sendable {
    var failures: [(description: String, file: String?, line: Int)] = []

    func testCase(
        _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
        atLine lineNumber: Int
    ) {
        failures.append((description, filePath, lineNumber))
    }
}

final class FailureLocationTests: XCTestCase {
    private func run(_ name: String, _ body: @escaping (ProbeTestCase) -> () -> Void) -> FailureObserver {
        let observer = FailureObserver()
        XCTestObservationCenter.shared.addTestObserver(observer)
        defer { XCTestObservationCenter.shared.removeTestObserver(observer) }
        let probe = ProbeTestCase(name: name) { body($0 as! ProbeTestCase)() }
        probe.run()
        PageTrail.shared.reset()
        return observer
    }

    func testAUITestCaseWithoutMakeAppFailsItsTestsWithTheFix() throws {
        let observer = FailureObserver()
        XCTestObservationCenter.shared.addTestObserver(observer)
        defer { XCTestObservationCenter.shared.removeTestObserver(observer) }
        let probe = UnconfiguredTestCase(name: "probe") { ($0 as! UnconfiguredTestCase).probe() }
        probe.run()
        XCTAssertEqual(probe.testRun?.hasSucceeded, false)
        let failure = try XCTUnwrap(observer.failures.first)
        XCTAssertEqual(observer.failures.count, 1)
        XCTAssertTrue(
            failure.description.contains("UnconfiguredTestCase must override makeApp(on:) to create its app"),
            failure.description)
    }

    func testAFailedAssertionInsideAPageMethodIsReportedAtTheTestLine() throws {
        let observer = run("probeFailingAssertion", ProbeTestCase.probeFailingAssertion)
        XCTAssertEqual(observer.failures.count, 1, "the first failure stops the test: \(observer.failures)")
        let failure = try XCTUnwrap(observer.failures.first)
        XCTAssertEqual(failure.file, #filePath)
        XCTAssertEqual(failure.line, ProbeTestCase.assertionLine)
        XCTAssertTrue(failure.description.contains("has label 'Hello 2'"), failure.description)
        XCTAssertTrue(failure.description.contains("now: StaticText label 'Hello 1'"), failure.description)
    }

    func testAMissingElementInsideAPageMethodIsReportedAtTheTestLine() throws {
        let observer = run("probeMissingElement", ProbeTestCase.probeMissingElement)
        let failure = try XCTUnwrap(observer.failures.first)
        XCTAssertEqual(failure.file, #filePath)
        XCTAssertEqual(failure.line, ProbeTestCase.missingLine)
        XCTAssertTrue(failure.description.contains("no matches found on screen \"Probe\""), failure.description)
    }

    func testThePageTrailRecordsPagesActionsCallSitesAndTargetFrames() throws {
        let app = SimulatedApp(ProbeApp.self, device: .iPhone15)
        app.launch()
        let trail = PageTrail()
        let enterLine = #line + 1
        let page = ProbePage(app: app, trail: trail)
        let tapLine = #line + 1
        page.tapNext()
        let steps = trail.steps
        XCTAssertEqual(steps.map(\.page), ["ProbePage", "ProbePage"])
        XCTAssertEqual(steps.map(\.action), [nil, "tapNext()"])
        XCTAssertEqual(steps.map(\.line), [enterLine, tapLine])
        XCTAssertEqual(steps.last?.file, #filePath)
        XCTAssertEqual(steps.last?.targetFrame, app.buttons["probe.next"].frame)
        XCTAssertFalse(trail.hasFailed)
    }

    func testActionNamesDropTheThreadedParameters() {
        XCTAssertEqual(BasePage.actionName("tapLogin(file:line:)"), "tapLogin()")
        XCTAssertEqual(BasePage.actionName("typeEmail(_:file:line:)"), "typeEmail(_:)")
        XCTAssertEqual(BasePage.actionName("openItem(_:file:line:)"), "openItem(_:)")
        XCTAssertEqual(
            BasePage.actionName("verifyCartConfirmation(quantity:of:file:line:)"),
            "verifyCartConfirmation(quantity:of:)")
    }

    func testPickerWheelValuesParse() {
        XCTAssertEqual(PickerWheelValue("Blue, 3 of 7"), PickerWheelValue(selected: "Blue", position: 3, count: 7))
        XCTAssertEqual(PickerWheelValue("Red, Dark, 1 of 2")?.selected, "Red, Dark")
        XCTAssertNil(PickerWheelValue("Blue"))
        XCTAssertNil(PickerWheelValue("Blue, 9 of 7"))
    }
}
