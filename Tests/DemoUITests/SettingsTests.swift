import DemoApp

final class SettingsTests: DemoTestCase {
    override var launchArguments: [String] { [DemoApp.loggedInArgument] }

    func testToggleNotificationsOff() {
        CatalogPage(app: app)
            .openSettings()
            .verifyShown()
            .verifyNotifications(isOn: true)
            .toggleNotifications()
            .verifyNotifications(isOn: false)
            .toggleWifiOnly()
            .verifyWifiOnly(isOn: true)
    }

    func testAccentPickerMovesToNextAndBack() {
        CatalogPage(app: app)
            .openSettings()
            .selectNextAccent()
            .verifySummaryMatchesAccent()
            .selectPreviousAccent()
            .selectPreviousAccent()
            .verifySummaryMatchesAccent()
    }

    func testSettingsSurviveGoingBack() {
        CatalogPage(app: app)
            .openSettings()
            .toggleWifiOnly()
            .goBack()
            .openSettings()
            .verifyWifiOnly(isOn: true)
    }
}
