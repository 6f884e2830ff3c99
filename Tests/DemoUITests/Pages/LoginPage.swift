import DemoAccessibility
import PageObjects
import SimulatedUI

/// The login screen: email, password, Log In, and the error a wrong password shows.
final class LoginPage: BasePage, Page {
    private var emailField: SimulatedElement { app.textFields[ID.Login.email] }
    private var passwordField: SimulatedElement { app.secureTextFields[ID.Login.password] }
    private var logInButton: SimulatedElement { app.buttons[ID.Login.submit] }
    private var errorLabel: SimulatedElement { app.staticTexts[ID.Login.error] }
    private var progress: SimulatedElement { app.activityIndicators[ID.Login.progress] }

    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: emailField, file: file, line: line)
        return self
    }

    @discardableResult
    func typeEmail(_ email: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        type(email, into: emailField, file: file, line: line)
        return self
    }

    @discardableResult
    func typePassword(_ password: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        type(password, into: passwordField, file: file, line: line)
        return self
    }

    /// Taps Log In and waits for the error a wrong login shows.
    @discardableResult
    func tapLoginExpectingError(file: StaticString = #filePath, line: UInt = #line) -> Self {
        tap(logInButton, file: file, line: line)
        waitForAppearance(of: errorLabel, file: file, line: line)
        return self
    }

    /// Taps Log In and waits for the sign-in to finish.
    func tapLogin(file: StaticString = #filePath, line: UInt = #line) -> MessagePage {
        tap(logInButton, file: file, line: line)
        waitForDisappearance(of: progress, file: file, line: line)
        return MessagePage(app: app, file: file, line: line)
    }

    @discardableResult
    func verifyError(_ message: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: errorLabel, equals: message, file: file, line: line)
        return self
    }
}
