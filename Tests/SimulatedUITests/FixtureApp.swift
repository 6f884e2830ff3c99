import Foundation
import SimulatedUI

/// A small app exercising every kind of element, for the simulated screen's own tests.
///
/// Launch environment: `LOAD_DELAY` (seconds, default 8) before the "loaded" label appears.
final class FixtureApp: AppProgram {
    let context: AppContext
    var name = ""
    var secret = ""
    var colourIndex = 2
    var isOn = false
    var showsAlert = false
    var isLoaded = false
    var taps: [String] = []
    static let colours = ["Red", "Orange", "Blue", "Green", "Indigo", "Violet", "Black"]

    init(context: AppContext) {
        self.context = context
        let delay = Double(context.launchEnvironment["LOAD_DELAY"] ?? "") ?? 8
        context.after(delay, kind: .background) { [self] in isLoaded = true }
    }

    func body() -> AppScreen {
        if context.launchArguments.contains("-rows") {
            return AppScreen(
                navigationBar: NavigationBar(title: "Rows"),
                content: [
                    .table(
                        id: "rows",
                        cells: (1...40).map { number in
                            Cell(identifier: "row.\(number)", title: "Row \(number)") { [self] in
                                taps.append("row.\(number)")
                            }
                        })
                ])
        }
        var content: [View] = [
            .textField(id: "name", text: name, placeholder: "Your name") { [self] in name = $0 },
            .textField(id: "secret", text: secret, placeholder: "Secret", isSecure: true) { [self] in secret = $0 },
            .button("Save", id: "save") { [self] in taps.append("save") },
            .button("save", id: "cancel", style: .plain) { [self] in taps.append("cancel") },
            .button("Delete", id: "", style: .plain) { [self] in taps.append("delete-1") },
            .button("Delete", id: "", style: .plain) { [self] in taps.append("delete-2") },
            .button("Show Alert", id: "showAlert", style: .plain) { [self] in showsAlert = true },
            .toggle("Wi-Fi", id: "wifi", isOn: isOn) { [self] in isOn = $0 },
            .picker(
                id: "colour",
                wheels: [
                    PickerWheel(identifier: "colourWheel", values: Self.colours, selectedIndex: colourIndex) { [self] in
                        colourIndex = $0
                    }
                ]),
            .text("Taps: \(taps.joined(separator: ","))", id: "taps"),
        ]
        if isLoaded { content.append(.text("Loaded", id: "loaded")) }
        return AppScreen(
            navigationBar: NavigationBar(title: "Fixture"), content: content,
            alert: showsAlert
                ? Alert(
                    identifier: "alert", title: "Sure?",
                    buttons: [BarButton("OK", identifier: "alert.ok") { [self] in showsAlert = false }])
                : nil)
    }
}

/// Collects the failures the simulated screen reports.
final class FailureLog: @unchecked Sendable {
    private var entries: [(message: String, line: UInt)] = []
    private let lock = NSLock()

    var messages: [String] { lock.withLock { entries.map(\.message) } }
    var lines: [UInt] { lock.withLock { entries.map(\.line) } }

    func install(on app: SimulatedApp) {
        app.failureHandler = { [self] message, _, line in lock.withLock { entries.append((message, line)) } }
    }
}
