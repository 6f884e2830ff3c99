import ShopApp

/// The shop's UI tests: every step is a page-object call, so a failure names its page, its action
/// and this file's line.
final class ProductTests: ShopTestCase {
    func testProductShowsItsPrice() {
        ProductsPage(app: app)
            .verifyShown()
            .openProduct(at: 1)
            .verifyShown()
            .verifyProduct("Green Tea", price: "$8.00")
    }

    func testAddingTeaCountsOneItem() {
        ProductsPage(app: app)
            .openProduct(at: 1)
            .addToBasket()
            .verifyBasket("Basket: 1 item")
            .goBack()
            .verifyBasket("Basket: 1 item")
    }
}
