import FailscopeReporter
import PageObjects
import ShopApp
import SimulatedUI
import Testing

/// The same page objects under Swift Testing: the `.failscope` trait records the suite (UI suites
/// drive one screen: keep them serialized), and `launchForTesting()` does what `UITestCase` does.
@Suite(.failscope, .serialized)
struct ProductSwiftTests {
    let app = SimulatedApp(ShopApp.self)

    init() {
        app.launchForTesting()
    }

    @Test func coffeeShowsItsPrice() {
        ProductsPage(app: app)
            .openProduct(at: 0)
            .verifyProduct("Coffee Beans", price: "$12.50")
    }
}
