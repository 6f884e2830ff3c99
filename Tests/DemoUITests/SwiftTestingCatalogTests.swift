import DemoApp
import FailscopeReporter
import PageObjects
import SimulatedUI
import Testing

/// The catalog suite written for Swift Testing: the same page objects, recorded by the
/// `.failscope` trait as the XCTest observer records the XCTest suites.
@Suite(.failscope, .serialized)
struct SwiftTestingCatalogTests {
    let app: SimulatedApp

    init() {
        app = SimulatedApp(DemoApp.self)
        app.launchArguments = [DemoApp.loggedInArgument]
        app.launchEnvironment = DemoLaunch.environment(test: "SwiftTestingCatalogTests")
        app.launchForTesting()
    }

    @Test func searchFindsLamps() {
        CatalogPage(app: app)
            .search("lamp")
            .verifyResultCount(10)
    }

    @Test(arguments: [3, 7])
    func openItemShowsItsQuantityPicker(item: Int) {
        CatalogPage(app: app)
            .openItem(item)
            .verifyQuantityPosition(1)
    }

    @Test func addToCartConfirmsQuantity() {
        CatalogPage(app: app)
            .openItem(1)
            .adjustQuantity(to: 2)
            .addToCart()
            .verifyCartConfirmation(quantity: 2, of: "Desk Lamp Oak")
    }
}
