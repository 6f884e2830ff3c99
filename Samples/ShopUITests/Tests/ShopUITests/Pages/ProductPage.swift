import PageObjects
import ShopApp
import SimulatedUI

/// A product's page: name, price, Add to Basket and the basket summary.
final class ProductPage: BasePage, Page {
    private var nameLabel: SimulatedElement { app.staticTexts[ShopID.Product.name] }
    private var priceLabel: SimulatedElement { app.staticTexts[ShopID.Product.price] }
    private var addButton: SimulatedElement { app.buttons[ShopID.Product.add] }
    private var basket: SimulatedElement { app.staticTexts[ShopID.Product.basket] }
    private var backButton: SimulatedElement { app.navigationBars.buttons[ShopID.Products.screen] }

    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: addButton, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyProduct(_ title: String, price: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: nameLabel, equals: title, file: file, line: line)
        assertLabel(of: priceLabel, equals: price, file: file, line: line)
        return self
    }

    /// Taps Add to Basket and waits until the app is done adding.
    @discardableResult
    func addToBasket(file: StaticString = #filePath, line: UInt = #line) -> Self {
        tap(addButton, file: file, line: line)
        waitFor(addButton, .enabled, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyBasket(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: basket, equals: text, file: file, line: line)
        return self
    }

    func goBack(file: StaticString = #filePath, line: UInt = #line) -> ProductsPage {
        tap(backButton, file: file, line: line)
        return ProductsPage(app: app, file: file, line: line)
    }
}
