import DemoApp

final class CatalogTests: DemoTestCase {
    override var launchArguments: [String] { [DemoApp.loggedInArgument] }

    func testSearchFindsLamps() {
        CatalogPage(app: app)
            .verifyShown()
            .search("lamp")
            .verifyResultCount(10)
    }

    func testSearchWithoutMatchShowsEmptyState() {
        CatalogPage(app: app)
            .search("submarine")
            .verifyNoResults()
    }

    func testSearchAndOpenItem() {
        CatalogPage(app: app)
            .search("walnut")
            .openFirstResult()
            .verifyTitle("Desk Lamp Walnut")
            .verifyPrice("$108.43")
    }

    func testScrollToFiftiethItem() {
        CatalogPage(app: app)
            .verifyShown()
            .scrollToItem(TestData.item50.number)
            .openItem(TestData.item50.number)
            .verifyTitle(TestData.item50.title)
            .verifyPrice(TestData.item50.price)
    }

    func testBackFromItemKeepsCatalog() {
        CatalogPage(app: app)
            .openItem(3)
            .verifyShown()
            .goBack()
            .verifyShown()
            .openItem(4)
            .verifyTitle("Coffee Table Oak")
    }
}
