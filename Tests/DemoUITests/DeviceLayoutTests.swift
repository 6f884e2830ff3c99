import DemoApp
import PageObjects

/// Runs only on phones: the catalog grid has two columns there.
final class PhoneLayoutTests: DemoTestCase, TestOnPhone {
    override var launchArguments: [String] { [DemoApp.loggedInArgument] }

    func testCatalogShowsTwoColumns() {
        CatalogPage(app: app)
            .verifyShown()
            .verifyColumnCount(2)
    }
}

/// Runs only on tablets: the catalog grid has four columns there.
final class TabletLayoutTests: DemoTestCase, TestOnTablet {
    override var launchArguments: [String] { [DemoApp.loggedInArgument] }

    func testCatalogShowsFourColumns() {
        CatalogPage(app: app)
            .verifyShown()
            .verifyColumnCount(4)
    }
}
