import DemoAccessibility
import PageObjects
import SimulatedUI

/// Settings: two switches and an accent-colour wheel whose values load from the network.
final class SettingsPage: BasePage, Page {
    private var notificationsSwitch: SimulatedElement { app.switches[ID.Settings.notifications] }
    private var wifiOnlySwitch: SimulatedElement { app.switches[ID.Settings.wifiOnly] }
    private var accentWheel: SimulatedElement { app.pickerWheels[ID.Settings.accentWheel] }
    private var accentSummary: SimulatedElement { app.staticTexts[ID.Settings.accentSummary] }
    private var backButton: SimulatedElement { app.navigationBars.buttons[ID.Settings.back] }

    @discardableResult
    func verifyShown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        waitForAppearance(of: notificationsSwitch, file: file, line: line)
        return self
    }

    @discardableResult
    func toggleNotifications(file: StaticString = #filePath, line: UInt = #line) -> Self {
        tap(notificationsSwitch, file: file, line: line)
        return self
    }

    @discardableResult
    func toggleWifiOnly(file: StaticString = #filePath, line: UInt = #line) -> Self {
        tap(wifiOnlySwitch, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyNotifications(isOn: Bool, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertValue(of: notificationsSwitch, equals: isOn ? "1" : "0", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyWifiOnly(isOn: Bool, file: StaticString = #filePath, line: UInt = #line) -> Self {
        assertValue(of: wifiOnlySwitch, equals: isOn ? "1" : "0", file: file, line: line)
        return self
    }

    @discardableResult
    func selectNextAccent(file: StaticString = #filePath, line: UInt = #line) -> Self {
        selectNextOption(of: accentWheel, file: file, line: line)
        return self
    }

    @discardableResult
    func selectPreviousAccent(file: StaticString = #filePath, line: UInt = #line) -> Self {
        selectPreviousOption(of: accentWheel, file: file, line: line)
        return self
    }

    /// Checks the wheel's 1-based position among colours the test cannot know in advance.
    @discardableResult
    func verifyAccentPosition(_ position: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        if let value = pickerValue(of: accentWheel, file: file, line: line), value.position != position {
            fail(
                "SettingsPage: accent wheel at position \(value.position), expected \(position)", file: file, line: line
            )
        }
        return self
    }

    /// Checks the summary line names the colour the wheel shows.
    @discardableResult
    func verifySummaryMatchesAccent(file: StaticString = #filePath, line: UInt = #line) -> Self {
        if let value = pickerValue(of: accentWheel, file: file, line: line) {
            assertLabel(of: accentSummary, equals: "Accent: \(value.selected)", file: file, line: line)
        }
        return self
    }

    func goBack(file: StaticString = #filePath, line: UInt = #line) -> CatalogPage {
        tap(backButton, file: file, line: line)
        return CatalogPage(app: app, file: file, line: line)
    }
}
