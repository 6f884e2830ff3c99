import SimulatedUI
import XCTest

final class QueryTests: XCTestCase {
    private var app: SimulatedApp!
    private let log = FailureLog()

    override func setUp() {
        app = SimulatedApp(FixtureApp.self, device: .iPhone15)
        log.install(on: app)
        app.launch()
    }

    func testSubscriptMatchesIdentifierBeforeLabel() {
        // "save" is the identifier of the Save button and the label of the Cancel button.
        XCTAssertEqual(app.buttons["save"].label, "Save")
        XCTAssertEqual(app.buttons["save"].matchCount, 1)
        app.buttons["save"].tap()
        XCTAssertEqual(app.staticTexts["taps"].label, "Taps: save")
        // No identifier "Show Alert": the label matches.
        XCTAssertEqual(app.buttons["Show Alert"].identifier, "showAlert")
        XCTAssertEqual(log.messages, [])
    }

    func testAmbiguousQueryFailsListingEveryMatch() {
        let line = #line + 1
        app.buttons["Delete"].tap()
        XCTAssertEqual(log.lines, [UInt(line)])
        let message = try! XCTUnwrap(log.messages.first)
        XCTAssertTrue(message.contains("multiple matching elements found"), message)
        XCTAssertEqual(message.components(separatedBy: "label: 'Delete'").count - 1, 2, message)
        XCTAssertEqual(app.staticTexts["taps"].label, "Taps: ", "a failed tap must not act")
    }

    func testElementBoundByIndexFollowsScreenOrder() {
        let buttons = app.buttons
        XCTAssertEqual(buttons.count, 5)
        XCTAssertEqual(buttons.element(boundBy: 0).identifier, "save")
        XCTAssertEqual(buttons.element(boundBy: 1).identifier, "cancel")
        buttons.matching(identifier: "").element(boundBy: 1).tap()
        XCTAssertEqual(app.staticTexts["taps"].label, "Taps: delete-2")
        XCTAssertFalse(buttons.element(boundBy: 5).exists)
        XCTAssertEqual(buttons.firstMatch.label, "Save")
        XCTAssertEqual(app.descendants(matching: .any).matching(.button, identifier: "showAlert").count, 1)
    }

    func testMissingElementFailsNamingQueryAndScreen() {
        app.buttons["nope"].tap()
        let message = try! XCTUnwrap(log.messages.first)
        XCTAssertTrue(message.contains("Button matching 'nope'"), message)
        XCTAssertTrue(message.contains("no matches found on screen \"Fixture\" (iPhone 15)"), message)
        XCTAssertFalse(app.buttons["nope"].exists)
        XCTAssertEqual(app.buttons["nope"].frame, .zero)
    }

    func testChildrenAndDescendantQueries() {
        let bar = app.navigationBars["Fixture"]
        XCTAssertTrue(bar.exists)
        XCTAssertEqual(bar.staticTexts.firstMatch.label, "Fixture")
        XCTAssertEqual(app.pickers["colour"].children(matching: .pickerWheel).count, 1)
        XCTAssertEqual(app.children(matching: .window).count, 1)
        XCTAssertEqual(app.switches["wifi"].value, "0")
    }

    func testDebugDescriptionListsTheTree() {
        let text = app.debugDescription
        XCTAssertTrue(text.contains("Button, {{16.0,"), text)
        XCTAssertTrue(text.contains("identifier: 'save', label: 'Save'"), text)
        XCTAssertTrue(text.contains("PickerWheel"), text)
        XCTAssertTrue(text.contains("value: Blue, 3 of 7"), text)
    }

    func testActionsOnATerminatedAppFail() {
        app.terminate()
        XCTAssertEqual(app.state, .notRunning)
        XCTAssertFalse(app.buttons["save"].exists)
        app.buttons["save"].tap()
        XCTAssertTrue(log.messages.first?.contains("the app is not running") == true, "\(log.messages)")
        XCTAssertNil(SimulatedScreen.main.snapshot())
    }
}
