import FailscopeReporter
import PageObjects
import SimulatedUI

/// The catalog as a page object, so that the bench's tests record page steps (and, with the reporter on,
/// keep each step's element tree for the action trace) as a UI suite does.
final class BenchCatalogPage: BasePage {
    private var grid: SimulatedElement { app.collectionViews["catalog.grid"] }

    @discardableResult
    func search(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: grid, file: file, line: line)
        type(text, into: app.textFields["catalog.search"], file: file, line: line)
        return self
    }

    var resultCount: Int { grid.cells.count }

    func openFirstItem(file: StaticString = #filePath, line: UInt = #line) -> BenchItemPage {
        tap(app.cells.element(boundBy: 0), file: file, line: line)
        return BenchItemPage(app: app, file: file, line: line)
    }
}

/// An item's page.
final class BenchItemPage: BasePage {
    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: app.staticTexts["item.title"], file: file, line: line)
        return self
    }
}
