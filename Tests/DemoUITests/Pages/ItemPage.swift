import DemoAccessibility
import PageObjects
import SimulatedUI

/// An item: title, price, a quantity picker whose values depend on stock, and Add to Cart.
final class ItemPage: BasePage, Page {
    private var title: SimulatedElement { app.staticTexts[ID.Item.title] }
    private var price: SimulatedElement { app.staticTexts[ID.Item.price] }
    private var quantityWheel: SimulatedElement { app.pickerWheels[ID.Item.quantityWheel] }
    private var addToCartButton: SimulatedElement { app.buttons[ID.Item.addToCart] }
    private var cartAlert: SimulatedElement { app.alerts[ID.Item.cartAlert] }
    private var cartAlertOK: SimulatedElement { app.alerts[ID.Item.cartAlert].buttons[ID.Item.cartAlertOK] }
    private var backButton: SimulatedElement { app.navigationBars.buttons[ID.Item.back] }

    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: title, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyTitle(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: title, equals: text, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyPrice(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertLabel(of: price, equals: text, file: file, line: line)
        return self
    }

    @discardableResult
    func selectNextQuantity(file: StaticString = #filePath, line: UInt = #line) -> Self {
        selectNextOption(of: quantityWheel, file: file, line: line)
        return self
    }

    @discardableResult
    func selectPreviousQuantity(file: StaticString = #filePath, line: UInt = #line) -> Self {
        selectPreviousOption(of: quantityWheel, file: file, line: line)
        return self
    }

    /// Moves the quantity wheel to its last value, whatever the stock is.
    @discardableResult
    func selectLargestQuantity(file: StaticString = #filePath, line: UInt = #line) -> Self {
        if let value = pickerValue(of: quantityWheel, file: file, line: line) {
            selectOption(at: value.count, of: quantityWheel, file: file, line: line)
        }
        return self
    }

    /// Selects the quantity `value` directly.
    @discardableResult
    func adjustQuantity(to value: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitFor(quantityWheel, .hittable, file: file, line: line)
        quantityWheel.adjust(toPickerWheelValue: String(value), file: file, line: line)
        return self
    }

    /// Checks the wheel's 1-based position (its value names position and count: "3, 3 of 7").
    @discardableResult
    func verifyQuantityPosition(_ position: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        if let value = pickerValue(of: quantityWheel, file: file, line: line), value.position != position {
            fail("ItemPage: quantity wheel at position \(value.position), expected \(position)", file: file, line: line)
        }
        return self
    }

    /// Checks that the selected quantity is the wheel's last value.
    @discardableResult
    func verifyLargestQuantitySelected(file: StaticString = #filePath, line: UInt = #line) -> Self {
        if let value = pickerValue(of: quantityWheel, file: file, line: line), value.position != value.count {
            fail("ItemPage: quantity \(value.selected) is not the largest (\(value.count))", file: file, line: line)
        }
        return self
    }

    @discardableResult
    func addToCart(file: StaticString = #filePath, line: UInt = #line) -> Self {
        tap(addToCartButton, file: file, line: line)
        waitForAppearance(of: cartAlert, file: file, line: line)
        return self
    }

    /// Checks the confirmation names the selected quantity of this item.
    @discardableResult
    func verifyCartConfirmation(quantity: Int, of item: String, file: StaticString = #filePath, line: UInt = #line)
        -> Self
    {
        assertExists(cartAlert.staticTexts["\(quantity) × \(item)"], file: file, line: line)
        return self
    }

    @discardableResult
    func dismissCartConfirmation(file: StaticString = #filePath, line: UInt = #line) -> Self {
        tap(cartAlertOK, file: file, line: line)
        waitForDisappearance(of: cartAlert, file: file, line: line)
        return self
    }

    func goBack(file: StaticString = #filePath, line: UInt = #line) -> CatalogPage {
        tap(backButton, file: file, line: line)
        return CatalogPage(app: app, file: file, line: line)
    }
}
