import SimulatedUI
import XCTest

final class WaitTests: XCTestCase {
    private func launch(loadDelay: Double) -> SimulatedApp {
        let app = SimulatedApp(FixtureApp.self, device: .iPhone15)
        app.launchEnvironment = ["LOAD_DELAY": String(loadDelay)]
        app.launch()
        return app
    }

    func testATenSecondWaitCostsNoWallTime() {
        let app = launch(loadDelay: 8)
        let started = Date()
        XCTAssertFalse(app.staticTexts["loaded"].exists)
        XCTAssertTrue(app.staticTexts["loaded"].waitForExistence(timeout: 10))
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.0)
        XCTAssertEqual(app.clock.now, 8, accuracy: 0.001, "the clock jumped to the load, not to the timeout")
    }

    func testAWaitThatTimesOutLeavesTheClockAtTheDeadline() {
        let app = launch(loadDelay: 8)
        XCTAssertFalse(app.staticTexts["loaded"].waitForExistence(timeout: 5))
        XCTAssertEqual(app.clock.now, 5, accuracy: 0.001)
        XCTAssertTrue(app.staticTexts["loaded"].waitForExistence(timeout: 5))
        XCTAssertEqual(app.clock.now, 8, accuracy: 0.001)
    }

    func testPredicateWaits() {
        let app = launch(loadDelay: 1)
        XCTAssertTrue(app.staticTexts["loaded"].wait(for: .labelEquals("Loaded"), timeout: 2))
        XCTAssertTrue(app.buttons["save"].wait(for: .hittable, timeout: 0))
        XCTAssertFalse(app.switches["wifi"].wait(for: .valueEquals("1"), timeout: 3))
        app.switches["wifi"].tap()
        XCTAssertTrue(app.switches["wifi"].wait(for: .valueEquals("1"), timeout: 0))
        XCTAssertTrue(app.buttons["showAlert"].wait(for: .enabled, timeout: 0))
        app.buttons["showAlert"].tap()
        app.alerts.buttons["alert.ok"].tap()
        XCTAssertTrue(app.alerts["alert"].waitForNonExistence(timeout: 1))
    }

    func testTheSameSeedGivesTheSameRunOnTheVirtualClock() {
        let first = launch(loadDelay: 3.5)
        let second = launch(loadDelay: 3.5)
        _ = first.staticTexts["loaded"].waitForExistence(timeout: 10)
        _ = second.staticTexts["loaded"].waitForExistence(timeout: 10)
        XCTAssertEqual(first.clock.now, second.clock.now)
    }
}
