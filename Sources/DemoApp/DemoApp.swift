import DemoAccessibility
import SimulatedUI

/// The sample app for the simulated screen: log in, a welcome message, a catalog of 60 items with
/// search, an item page with a quantity picker, and settings with switches and a picker wheel
/// whose values load from the network.
///
/// Launch arguments: `-logged-in` starts on the catalog. Faults come only from the launch
/// environment (`DemoFaults`). Network work (logging in, loading the catalog and the settings'
/// colours) takes time on the app's clock; navigation animates for 0.35 s.
public final class DemoApp: AppProgram {
    /// A screen on the navigation stack.
    enum Route: Equatable {
        case login
        case message
        case catalog
        case item(Int)
        case settings
    }

    /// The account that logs in.
    public static let validEmail = "ada@example.com"
    public static let validPassword = "swordfish"
    /// The launch argument that starts the app logged in, on the catalog.
    public static let loggedInArgument = "-logged-in"

    let context: AppContext
    let faults: DemoFaults
    var random: SeededGenerator
    var stack: [Route]

    var email = ""
    var password = ""
    var loginError: String?
    var isSigningIn = false

    var products: [Product]?
    var searchText = ""

    var quantityIndex = 0
    var cartConfirmation: String?

    var notificationsOn = true
    var wifiOnlyOn = false
    var accentColours: [String]?
    var accentIndex = 0

    public required init(context: AppContext) {
        self.context = context
        faults = DemoFaults(environment: context.launchEnvironment)
        random = SeededGenerator(seed: context.launchEnvironment[DemoFaults.seedKey] ?? "")
        stack = [.login]
        if context.launchArguments.contains(Self.loggedInArgument) {
            stack = [.message, .catalog]
            loadCatalog()
        }
    }

    public func body() -> AppScreen {
        switch stack.last ?? .login {
        case .login: loginScreen()
        case .message: messageScreen()
        case .catalog: catalogScreen()
        case .item(let number): itemScreen(Product.catalog[number - 1])
        case .settings: settingsScreen()
        }
    }

    // MARK: Navigation

    func push(_ route: Route) {
        stack.append(route)
        animateTransition()
    }

    func pop() {
        guard stack.count > 1 else { return }
        stack.removeLast()
        animateTransition()
    }

    /// The title of the screen under the top one: what a back button says.
    var previousTitle: String {
        guard stack.count > 1 else { return "Back" }
        switch stack[stack.count - 2] {
        case .login: return ID.Login.screen
        case .message: return ID.Message.screen
        case .catalog: return ID.Catalog.screen
        case .item(let number): return Product.catalog[number - 1].name
        case .settings: return ID.Settings.screen
        }
    }

    private func animateTransition() {
        context.after(0.35) {}
    }

    /// How long a network request takes: 0.3–1.2 s, or with the `slow-network` fault one time in
    /// eight 5.5–8 s (longer than a page object's 5 s wait).
    func networkDelay() -> Double {
        if faults.slowNetwork && Double.random(in: 0..<1, using: &random) < 0.125 {
            return Double.random(in: 5.5...8, using: &random)
        }
        return Double.random(in: 0.3...1.2, using: &random)
    }

    func loadCatalog() {
        products = nil
        context.after(networkDelay(), kind: .background) { [self] in
            products = Product.catalog
        }
    }
}
