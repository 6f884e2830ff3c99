import DemoApp

final class ItemTests: DemoTestCase {
    override var launchArguments: [String] { [DemoApp.loggedInArgument] }

    func testQuantityPickerNextAndPrevious() {
        CatalogPage(app: app)
            .openItem(2)
            .verifyQuantityPosition(1)
            .selectNextQuantity()
            .selectNextQuantity()
            .verifyQuantityPosition(3)
            .selectPreviousQuantity()
            .verifyQuantityPosition(2)
    }

    func testQuantityPickerReachesLargestValueUnknownInAdvance() {
        CatalogPage(app: app)
            .openItem(7)
            .selectLargestQuantity()
            .verifyLargestQuantitySelected()
    }

    func testAddToCartConfirmsQuantity() {
        CatalogPage(app: app)
            .openItem(1)
            .adjustQuantity(to: 3)
            .addToCart()
            .verifyCartConfirmation(quantity: 3, of: "Desk Lamp Oak")
            .dismissCartConfirmation()
            .verifyShown()
    }
}
