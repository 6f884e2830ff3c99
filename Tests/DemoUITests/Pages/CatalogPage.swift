import DemoAccessibility
import PageObjects
import SimulatedUI

/// The catalog: a search field over a grid of items that loads from the network.
final class CatalogPage: BasePage, Page {
    private var searchField: SimulatedElement { app.textFields[ID.Catalog.search] }
    private var grid: SimulatedElement { app.collectionViews[ID.Catalog.grid] }
    private var emptyState: SimulatedElement { app.staticTexts[ID.Catalog.empty] }
    private var settingsButton: SimulatedElement { app.navigationBars[ID.Catalog.screen].buttons[ID.Catalog.settings] }
    private var results: ElementQuery { grid.cells }
    private func item(_ number: Int) -> SimulatedElement { grid.cells[ID.Catalog.item(number)] }

    /// Waits for the items to load.
    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: grid, file: file, line: line)
        return self
    }

    @discardableResult
    func search(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: grid, file: file, line: line)
        type(text, into: searchField, file: file, line: line)
        return self
    }

    /// Checks how many items the search shows (all fit on screen for a narrow search).
    @discardableResult
    func verifyResultCount(_ count: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: grid, file: file, line: line)
        if results.count != count {
            fail("CatalogPage: expected \(count) results, found \(results.count)", file: file, line: line)
        }
        return self
    }

    @discardableResult
    func verifyNoResults(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: emptyState, file: file, line: line)
        return self
    }

    /// Scrolls the grid until item `number` is on screen.
    @discardableResult
    func scrollToItem(_ number: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: grid, file: file, line: line)
        scrollTo(item(number), in: grid, file: file, line: line)
        return self
    }

    /// Scrolls to item `number` and opens it.
    func openItem(_ number: Int, file: StaticString = #filePath, line: UInt = #line) -> ItemPage {
        waitForAppearance(of: grid, file: file, line: line)
        scrollTo(item(number), in: grid, file: file, line: line)
        tap(item(number), file: file, line: line)
        return ItemPage(app: app, file: file, line: line)
    }

    /// Opens the first item the grid shows.
    func openFirstResult(file: StaticString = #filePath, line: UInt = #line) -> ItemPage {
        tap(results.element(boundBy: 0), file: file, line: line)
        return ItemPage(app: app, file: file, line: line)
    }

    /// Checks the grid's number of columns (items sharing the first row).
    @discardableResult
    func verifyColumnCount(_ columns: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: grid, file: file, line: line)
        let firstRow = results.allElementsBoundByIndex.map(\.frame.minY)
        let count = firstRow.filter { $0 == firstRow.first }.count
        if count != columns {
            fail("CatalogPage: expected \(columns) columns, found \(count)", file: file, line: line)
        }
        return self
    }

    func openSettings(file: StaticString = #filePath, line: UInt = #line) -> SettingsPage {
        tap(settingsButton, file: file, line: line)
        return SettingsPage(app: app, file: file, line: line)
    }
}
