import PageObjects
import ShopApp
import SimulatedUI

/// The product list: the basket summary and one row per product.
final class ProductsPage: BasePage, Page {
    private var list: SimulatedElement { app.tables[ShopID.Products.list] }
    private var basket: SimulatedElement { app.staticTexts[ShopID.Products.basket] }

    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: list, file: file, line: line)
        return self
    }

    /// Opens the product in row `index` (from 0).
    func openProduct(at index: Int, file: StaticString = #filePath, line: UInt = #line) -> ProductPage {
        tap(list.cells.element(boundBy: index), file: file, line: line)
        return ProductPage(app: app, file: file, line: line)
    }

    @discardableResult
    func verifyBasket(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: basket, equals: text, file: file, line: line)
        return self
    }
}
