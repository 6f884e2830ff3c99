import ShopApp

/// A test that fails on purpose: ShopApp adds two mugs for one tap. Run it to see what Failscope
/// records for a failure (the page, the action, this line, and the screen as PNG):
/// `swift test --filter KnownBugTests`. The rest of the suite: `swift test --skip KnownBugTests`.
final class KnownBugTests: ShopTestCase {
    func testAddingTheMugCountsOneItem() {
        ProductsPage(app: app)
            .openProduct(at: 2)
            .addToBasket()
            .verifyBasket("Basket: 1 item")
    }
}
