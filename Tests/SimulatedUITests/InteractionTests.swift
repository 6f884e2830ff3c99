import SimulatedUI
import XCTest

final class InteractionTests: XCTestCase {
    private var app: SimulatedApp!
    private let log = FailureLog()

    override func setUp() {
        app = SimulatedApp(FixtureApp.self, device: .iPhone15ProMax)
        log.install(on: app)
        app.launch()
    }

    func testTypingNeedsKeyboardFocus() {
        let field = app.textFields["name"]
        XCTAssertEqual(field.value, "Your name", "an empty field's value is its placeholder")
        field.typeText("Ada")
        XCTAssertTrue(log.messages.first?.contains("keyboard focus") == true, "\(log.messages)")
        XCTAssertEqual(field.value, "Your name")
        field.tap()
        XCTAssertTrue(field.hasFocus)
        field.typeText("Ada")
        field.typeText(" L")
        XCTAssertEqual(field.value, "Ada L")
        field.clearText()
        XCTAssertEqual(field.value, "Your name")
    }

    func testFocusMovesToTheLastTappedFieldAndSecureTextIsDotted() {
        app.textFields["name"].tap()
        app.secureTextFields["secret"].tap()
        XCTAssertFalse(app.textFields["name"].hasFocus)
        app.secureTextFields["secret"].typeText("hunter2")
        XCTAssertEqual(app.secureTextFields["secret"].value, "•••••••")
        XCTAssertEqual(app.secureTextFields["secret"].placeholderValue, "Secret")
    }

    func testSwitchTapFlipsItsValue() {
        app.switches["wifi"].tap()
        XCTAssertEqual(app.switches["wifi"].value, "1")
        app.switches["Wi-Fi"].tap()
        XCTAssertEqual(app.switches["wifi"].value, "0")
    }

    func testPickerWheelValueAndTapsAboveAndBelowItsCentre() {
        let wheel = app.pickerWheels["colourWheel"]
        XCTAssertEqual(wheel.value, "Blue, 3 of 7")
        let centre = wheel.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.5))
        centre.withOffset(CGVector(dx: 0, dy: 30)).tap()
        XCTAssertEqual(wheel.value, "Green, 4 of 7")
        centre.withOffset(CGVector(dx: 0, dy: -30)).tap()
        centre.withOffset(CGVector(dx: 0, dy: -30)).tap()
        XCTAssertEqual(wheel.value, "Orange, 2 of 7")
        centre.tap()
        XCTAssertEqual(wheel.value, "Orange, 2 of 7", "a tap on the selected row changes nothing")
        centre.press(forDuration: 0.1, thenDragTo: centre.withOffset(CGVector(dx: 0, dy: -64)))
        XCTAssertEqual(wheel.value, "Green, 4 of 7", "dragging up two rows moves two values on")
    }

    func testAdjustToPickerWheelValue() {
        let wheel = app.pickerWheels["colourWheel"]
        wheel.adjust(toPickerWheelValue: "Black")
        XCTAssertEqual(wheel.value, "Black, 7 of 7")
        wheel.adjust(toPickerWheelValue: "Mauve")
        XCTAssertTrue(log.messages.first?.contains("'Mauve': not one of its values") == true, "\(log.messages)")
        XCTAssertEqual(wheel.value, "Black, 7 of 7")
        app.buttons["save"].adjust(toPickerWheelValue: "Red")
        XCTAssertTrue(log.messages.last?.contains("not a picker wheel") == true, "\(log.messages)")
    }

    func testScreenSnapshotOfTheForegroundApp() throws {
        let snapshot = try XCTUnwrap(SimulatedScreen.main.snapshot())
        XCTAssertEqual(snapshot.device, .iPhone15ProMax)
        XCTAssertEqual(snapshot.root.elementType, .application)
        let identifiers = Set(snapshot.root.allElements.map(\.identifier))
        XCTAssertTrue(identifiers.isSuperset(of: ["name", "secret", "save", "colourWheel", "wifi"]))
        let wheel = try XCTUnwrap(snapshot.root.allElements.first { $0.identifier == "colourWheel" })
        XCTAssertEqual(wheel.options.count, 7)
        XCTAssertEqual(wheel.selectedOption, 2)
        let data = try JSONEncoder().encode(snapshot)
        XCTAssertEqual(try JSONDecoder().decode(ScreenSnapshot.self, from: data), snapshot)
    }
}
