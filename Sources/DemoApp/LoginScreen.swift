import DemoAccessibility
import SimulatedUI

extension DemoApp {
    /// Email, password, Log In; a wrong password shows an error after the network answers.
    func loginScreen() -> AppScreen {
        var content: [View] = [
            .text("Sign in to your account", style: .secondary),
            .textField(id: ID.Login.email, text: email, placeholder: "Email") { [self] in email = $0 },
            .textField(id: ID.Login.password, text: password, placeholder: "Password", isSecure: true) { [self] in
                password = $0
            },
            .button("Log In", id: ID.Login.submit, isEnabled: !isSigningIn) { [self] in logIn() },
        ]
        if isSigningIn {
            content.append(.activityIndicator(id: ID.Login.progress, label: "Signing in"))
        }
        if let loginError {
            content.append(.text(loginError, id: ID.Login.error, style: .error))
        }
        return AppScreen(navigationBar: NavigationBar(title: ID.Login.screen), content: content)
    }

    private func logIn() {
        loginError = nil
        isSigningIn = true
        context.after(networkDelay(), kind: .background) { [self] in
            isSigningIn = false
            if email == Self.validEmail && password == Self.validPassword {
                password = ""
                push(.message)
            } else {
                loginError = "Wrong email or password."
            }
        }
    }

    /// The welcome message after a good login.
    func messageScreen() -> AppScreen {
        AppScreen(
            navigationBar: NavigationBar(title: ID.Message.screen),
            content: [
                .text("Hello World!", id: ID.Message.text, style: .largeTitle),
                .text("You are signed in as \(email.isEmpty ? Self.validEmail : email).", style: .secondary),
                .button("Browse Catalog", id: ID.Message.browseCatalog) { [self] in
                    push(.catalog)
                    loadCatalog()
                },
                .button("Log Out", id: ID.Message.logOut, style: .destructive) { [self] in
                    email = ""
                    stack = [.login]
                },
            ])
    }
}
