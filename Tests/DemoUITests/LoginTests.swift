import DemoApp

final class LoginTests: DemoTestCase {
    func testWrongPasswordShowsError() {
        LoginPage(app: app)
            .verifyShown()
            .typeEmail(TestData.email)
            .typePassword(TestData.wrongPassword)
            .tapLoginExpectingError()
            .verifyError("Wrong email or password.")
    }

    func testLoginAfterWrongPasswordShowsHelloWorld() {
        LoginPage(app: app)
            .typeEmail(TestData.email)
            .typePassword(TestData.wrongPassword)
            .tapLoginExpectingError()
            .typePassword(TestData.password)
            .tapLogin()
            .verifyMessage("Hello World!")
    }

    func testEmptyEmailShowsError() {
        LoginPage(app: app)
            .typePassword(TestData.password)
            .tapLoginExpectingError()
            .verifyError("Wrong email or password.")
    }

    func testLogOutReturnsToLogin() {
        LoginPage(app: app)
            .typeEmail(TestData.email)
            .typePassword(TestData.password)
            .tapLogin()
            .verifyShown()
            .logOut()
            .verifyShown()
    }

    func testBrowseCatalogAfterLogin() {
        LoginPage(app: app)
            .typeEmail(TestData.email)
            .typePassword(TestData.password)
            .tapLogin()
            .browseCatalog()
            .verifyShown()
            .verifyColumnCount(app.device.idiom == .pad ? 4 : 2)
    }
}
