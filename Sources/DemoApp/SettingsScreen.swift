import DemoAccessibility
import SimulatedUI

extension DemoApp {
    /// Two switches and an accent-colour picker whose values arrive from the network.
    func settingsScreen() -> AppScreen {
        var content: [View] = [
            .toggle("Notifications", id: ID.Settings.notifications, isOn: notificationsOn) { [self] in
                notificationsOn = $0
            },
            .toggle("Download on Wi-Fi only", id: ID.Settings.wifiOnly, isOn: wifiOnlyOn) { [self] in wifiOnlyOn = $0 },
            .text("Accent colour", style: .secondary),
        ]
        if let accentColours {
            content.append(
                .picker(
                    id: ID.Settings.accentPicker,
                    wheels: [
                        PickerWheel(
                            identifier: ID.Settings.accentWheel, values: accentColours, selectedIndex: accentIndex
                        ) {
                            [self] in accentIndex = $0
                        }
                    ]))
            content.append(.text("Accent: \(accentColours[accentIndex])", id: ID.Settings.accentSummary, style: .body))
        } else {
            content.append(.activityIndicator(id: ID.Settings.loading, label: "Loading colours"))
        }
        return AppScreen(
            navigationBar: NavigationBar(
                title: ID.Settings.screen,
                backButton: BarButton(previousTitle, identifier: ID.Settings.back) { [self] in pop() }),
            content: content)
    }

    func loadAccentColours() {
        guard accentColours == nil else { return }
        context.after(networkDelay(), kind: .background) { [self] in
            accentColours = ["Blue", "Green", "Indigo", "Orange", "Pink", "Purple", "Red", "Teal", "Yellow"]
            accentIndex = 4
        }
    }
}
