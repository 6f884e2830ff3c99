import DemoAccessibility
import PageObjects
import SimulatedUI

/// The welcome message after logging in.
final class MessagePage: BasePage, Page {
    private var message: SimulatedElement { app.staticTexts[ID.Message.text] }
    private var browseButton: SimulatedElement { app.buttons[ID.Message.browseCatalog] }
    private var logOutButton: SimulatedElement { app.buttons[ID.Message.logOut] }

    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: message, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyMessage(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: message, equals: text, file: file, line: line)
        return self
    }

    func browseCatalog(file: StaticString = #filePath, line: UInt = #line) -> CatalogPage {
        tap(browseButton, file: file, line: line)
        return CatalogPage(app: app, file: file, line: line)
    }

    func logOut(file: StaticString = #filePath, line: UInt = #line) -> LoginPage {
        tap(logOutButton, file: file, line: line)
        return LoginPage(app: app, file: file, line: line)
    }
}
