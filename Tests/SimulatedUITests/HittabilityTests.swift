import SimulatedUI
import XCTest

final class HittabilityTests: XCTestCase {
    private let log = FailureLog()

    private func launch(_ arguments: [String] = [], device: Device = .iPhone15) -> SimulatedApp {
        let app = SimulatedApp(FixtureApp.self, device: device)
        app.launchArguments = arguments
        log.install(on: app)
        app.launch()
        return app
    }

    func testCellsOutsideTheViewportAreNotHittableOrNotMaterialized() {
        let app = launch(["-rows"])
        let table = app.tables["rows"]
        XCTAssertTrue(app.cells["row.1"].isHittable)
        // 852 pt screen: the table's viewport shows rows up to about 12; row 40 is not even materialized.
        XCTAssertFalse(app.cells["row.40"].exists)
        let lastVisible = table.cells.allElementsBoundByIndex.last { $0.isHittable }
        XCTAssertNotNil(lastVisible)
        let beyond = table.cells.allElementsBoundByIndex.first { $0.exists && !$0.isHittable }
        XCTAssertNotNil(beyond, "a materialized cell below the viewport exists but is not hittable")
        if let beyond {
            XCTAssertGreaterThan(beyond.frame.midY, table.frame.maxY)
        }
    }

    func testSwipingUpScrollsUntilARowIsHittable() {
        let app = launch(["-rows"])
        let row = app.cells["row.30"]
        var swipes = 0
        while !row.isHittable && swipes < 10 {
            app.tables["rows"].swipeUp()
            swipes += 1
        }
        XCTAssertTrue(row.isHittable)
        XCTAssertGreaterThan(swipes, 1)
        XCTAssertFalse(app.cells["row.1"].isHittable, "row 1 scrolled out of the viewport")
        row.tap()
        XCTAssertEqual(log.messages, [])
        app.tables["rows"].swipeDown()
        app.tables["rows"].swipeDown()
        app.tables["rows"].swipeDown()
        app.tables["rows"].swipeDown()
        app.tables["rows"].swipeDown()
        XCTAssertTrue(app.cells["row.1"].isHittable, "swiping down returns to the top and stops there")
        XCTAssertEqual(app.cells["row.1"].frame.minY, app.tables["rows"].frame.minY + 16)
    }

    func testPressAndDragScrollsByTheDraggedDistance() {
        let app = launch(["-rows"])
        let before = app.cells["row.2"].frame.minY
        let table = app.tables["rows"]
        table.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.8))
            .press(
                forDuration: 0.01,
                thenDragTo: table.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.8)).withOffset(
                    CGVector(dx: 0, dy: -100)))
        XCTAssertEqual(app.cells["row.2"].frame.minY, before - 100)
    }

    func testAnAlertCoversEverythingBeneathIt() {
        let app = launch()
        app.buttons["showAlert"].tap()
        XCTAssertTrue(app.alerts["alert"].exists)
        XCTAssertFalse(app.buttons["save"].isHittable)
        XCTAssertTrue(app.alerts["alert"].buttons["alert.ok"].isHittable)
        let line = #line + 1
        app.buttons["save"].tap()
        XCTAssertEqual(log.lines, [UInt(line)])
        XCTAssertTrue(log.messages.first?.contains("not hittable") == true, "\(log.messages)")
        app.alerts["alert"].buttons["OK"].tap()
        XCTAssertFalse(app.alerts["alert"].exists)
        XCTAssertTrue(app.buttons["save"].isHittable)
    }

    func testContentTallerThanTheScreenIsWrappedInAScrollView() {
        let app = launch(device: .iPhoneSE3)
        XCTAssertEqual(app.scrollViews.count, 1)
        let label = app.staticTexts["taps"]
        XCTAssertTrue(label.exists)
        XCTAssertFalse(label.isHittable, "below the 667 pt screen")
        app.scrollViews.firstMatch.swipeUp()
        XCTAssertTrue(label.isHittable)
    }
}
