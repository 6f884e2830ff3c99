import DemoAccessibility
import DemoApp
import Foundation
import SimulatedUI
import XCTest

/// Snapshots of the real sample app (`DemoApp`) driven to its main screens through the simulated
/// screen's XCUITest-style API, for reference images and pixel assertions.
enum DemoScreens {
    static func launch(_ device: Device, loggedIn: Bool) -> SimulatedApp {
        let app = SimulatedApp(DemoApp.self, device: device)
        app.launchEnvironment["DEMO_SEED"] = "raster"
        if loggedIn { app.launchArguments = [DemoApp.loggedInArgument] }
        app.failureHandler = { message, file, line in XCTFail("DemoApp: \(message)", file: file, line: line) }
        app.launch()
        return app
    }

    /// Login after a wrong password: email typed, password dots, the error under the button.
    static func loginError(_ device: Device = .iPhoneSE3) -> ScreenSnapshot {
        let app = launch(device, loggedIn: false)
        defer { app.terminate() }
        app.textFields[ID.Login.email].tap()
        app.textFields[ID.Login.email].typeText("ada@example.com")
        app.secureTextFields[ID.Login.password].tap()
        app.secureTextFields[ID.Login.password].typeText("password")
        app.buttons[ID.Login.submit].tap()
        XCTAssertTrue(app.staticTexts[ID.Login.error].waitForExistence(timeout: 10), "login error shown")
        return app.snapshot()
    }

    /// The catalog grid, loaded.
    static func catalog(_ device: Device = .iPhoneSE3) -> ScreenSnapshot {
        let app = launch(device, loggedIn: true)
        defer { app.terminate() }
        XCTAssertTrue(app.collectionViews[ID.Catalog.grid].waitForExistence(timeout: 10), "catalog loaded")
        return app.snapshot()
    }

    /// An item after Add to Cart: the confirmation alert over the item's quantity picker.
    static func itemAlert(_ device: Device = .iPhoneSE3) -> ScreenSnapshot {
        let app = launch(device, loggedIn: true)
        defer { app.terminate() }
        XCTAssertTrue(app.cells[ID.Catalog.item(1)].waitForExistence(timeout: 10), "catalog loaded")
        app.cells[ID.Catalog.item(1)].tap()
        XCTAssertTrue(app.buttons[ID.Item.addToCart].waitForExistence(timeout: 10), "item shown")
        app.buttons[ID.Item.addToCart].tap()
        XCTAssertTrue(app.alerts[ID.Item.cartAlert].waitForExistence(timeout: 10), "cart alert shown")
        return app.snapshot()
    }

    /// Settings with its switches and the accent picker wheel, loaded.
    static func settings(_ device: Device = .iPhoneSE3) -> ScreenSnapshot {
        let app = launch(device, loggedIn: true)
        defer { app.terminate() }
        XCTAssertTrue(app.buttons[ID.Catalog.settings].waitForExistence(timeout: 10), "catalog shown")
        app.buttons[ID.Catalog.settings].tap()
        XCTAssertTrue(app.pickerWheels[ID.Settings.accentWheel].waitForExistence(timeout: 10), "accents loaded")
        app.switches[ID.Settings.wifiOnly].tap()
        return app.snapshot()
    }
}
