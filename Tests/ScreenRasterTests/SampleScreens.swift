import Foundation
import SimulatedUI

/// Hand-built screens that look like the sample app's (login, catalog, settings, an alert), for the
/// renderer's tests until they render the real `DemoApp`. Frames are in points, screen coordinates.
enum SampleScreens {
    static func root(_ device: Device, _ children: [ElementSnapshot]) -> ElementSnapshot {
        ElementSnapshot(
            elementType: .application, identifier: "DemoApp", label: "Demo", frame: device.bounds,
            children: [ElementSnapshot(elementType: .window, frame: device.bounds, children: children)])
    }

    static func navigationBar(_ device: Device, _ title: String, back: String? = nil) -> ElementSnapshot {
        var children: [ElementSnapshot] = []
        if let back {
            children.append(
                ElementSnapshot(
                    elementType: .button, identifier: "nav.back", label: back,
                    frame: CGRect(x: 0, y: device.safeAreaTop, width: 100, height: 44)))
        }
        return ElementSnapshot(
            elementType: .navigationBar, identifier: title, label: title,
            frame: CGRect(x: 0, y: device.safeAreaTop, width: device.width, height: 44), children: children)
    }

    /// The login screen after typing an email and a password and a failed attempt.
    static func login(_ device: Device = .iPhoneSE3) -> ScreenSnapshot {
        let w = device.width
        let y = device.safeAreaTop + 44
        return ScreenSnapshot(
            device: device,
            root: root(
                device,
                [
                    navigationBar(device, "Sign In"),
                    ElementSnapshot(
                        elementType: .staticText, identifier: "login.title", label: "Welcome back",
                        frame: CGRect(x: 16, y: y + 24, width: w - 32, height: 40), style: .title),
                    ElementSnapshot(
                        elementType: .textField, identifier: "login.email", label: "Email",
                        value: "tester@example.com", placeholderValue: "Email",
                        frame: CGRect(x: 16, y: y + 84, width: w - 32, height: 44), hasFocus: true),
                    ElementSnapshot(
                        elementType: .secureTextField, identifier: "login.password", label: "Password",
                        value: "••••••••", placeholderValue: "Password",
                        frame: CGRect(x: 16, y: y + 140, width: w - 32, height: 44)),
                    ElementSnapshot(
                        elementType: .textField, identifier: "login.code", label: "Code",
                        value: "", placeholderValue: "One-time code (optional)",
                        frame: CGRect(x: 16, y: y + 196, width: w - 32, height: 44)),
                    ElementSnapshot(
                        elementType: .staticText, identifier: "login.error",
                        label: "Wrong email or password. Check both and try again, or reset your password below.",
                        frame: CGRect(x: 16, y: y + 252, width: w - 32, height: 40), style: .error),
                    ElementSnapshot(
                        elementType: .button, identifier: "login.submit", label: "Log In",
                        frame: CGRect(x: 16, y: y + 308, width: w - 32, height: 50), style: .filled),
                    ElementSnapshot(
                        elementType: .button, identifier: "login.forgot", label: "Forgot password?",
                        frame: CGRect(x: 16, y: y + 370, width: w - 32, height: 44), style: .plain),
                    ElementSnapshot(
                        elementType: .button, identifier: "login.sso", label: "Sign in with SSO",
                        frame: CGRect(x: 16, y: y + 420, width: w - 32, height: 50), isEnabled: false,
                        style: .filled),
                    ElementSnapshot(
                        elementType: .activityIndicator, identifier: "login.spinner",
                        frame: CGRect(x: w / 2 - 18, y: y + 490, width: 36, height: 36)),
                ]))
    }

    /// The login screen with a "Login Failed" alert over it.
    static func loginAlert(_ device: Device = .iPhoneSE3) -> ScreenSnapshot {
        var screen = login(device)
        let box = CGRect(x: device.width / 2 - 135, y: device.height / 2 - 70, width: 270, height: 140)
        screen.root.children.append(
            ElementSnapshot(
                elementType: .alert, identifier: "alert.loginFailed", label: "Login Failed", frame: box,
                children: [
                    ElementSnapshot(
                        elementType: .staticText, label: "Login Failed",
                        frame: CGRect(x: box.minX + 16, y: box.minY + 16, width: 238, height: 24), style: .headline),
                    ElementSnapshot(
                        elementType: .staticText, label: "The server did not answer. Try again later.",
                        frame: CGRect(x: box.minX + 16, y: box.minY + 42, width: 238, height: 44)),
                    ElementSnapshot(
                        elementType: .button, identifier: "alert.cancel", label: "Cancel",
                        frame: CGRect(x: box.minX, y: box.maxY - 44, width: 135, height: 44)),
                    ElementSnapshot(
                        elementType: .button, identifier: "alert.retry", label: "Retry",
                        frame: CGRect(x: box.minX + 135, y: box.maxY - 44, width: 135, height: 44), style: .filled),
                ]))
        return screen
    }

    static let products = [
        "Desk Lamp", "Oak Chair", "Linen Sofa", "Wall Clock", "Floor Rug", "Bookshelf", "Ceramic Vase",
        "Side Table", "Pendant Light", "Wool Blanket", "Mirror", "Coat Rack", "Planter", "Bar Stool",
        "Night Stand", "Throw Pillow", "Candle Set", "Picture Frame", "Storage Box", "Armchair",
    ]

    /// The catalog: a two-column grid of 64 items scrolled by `scroll` points; cells are materialized
    /// for the visible rows plus one row beyond each edge (which must not be drawn).
    static func catalog(_ device: Device = .iPhoneSE3, scroll: Double = 70) -> ScreenSnapshot {
        let w = device.width
        let top = device.safeAreaTop + 44
        let grid = CGRect(x: 0, y: top, width: w, height: device.height - top - device.safeAreaBottom)
        let spacing = 12.0
        let cellWidth = (w - 3 * spacing) / 2
        let cellHeight = cellWidth + 56
        var cells: [ElementSnapshot] = []
        for index in 0..<64 {
            let row = Double(index / 2)
            let y = grid.minY + spacing + row * (cellHeight + spacing) - scroll
            // Materialized: visible rows and one row outside each edge of the viewport.
            guard y + cellHeight > grid.minY - cellHeight - spacing, y < grid.maxY + cellHeight + spacing else {
                continue
            }
            let x = spacing + Double(index % 2) * (cellWidth + spacing)
            let frame = CGRect(x: x, y: y, width: cellWidth, height: cellHeight)
            let name =
                products[index % products.count] + (index >= products.count ? " \(index / products.count + 1)" : "")
            let visible = frame.intersects(grid)
            cells.append(
                ElementSnapshot(
                    elementType: .cell, identifier: "catalog.item.\(index)", label: name, frame: frame,
                    isHittable: visible,
                    children: [
                        ElementSnapshot(
                            elementType: .image, identifier: "catalog.item.\(index).image", label: name,
                            frame: CGRect(x: x + 8, y: y + 8, width: cellWidth - 16, height: cellWidth - 16)),
                        ElementSnapshot(
                            elementType: .staticText, identifier: "catalog.item.\(index).name", label: name,
                            frame: CGRect(x: x + 8, y: y + cellWidth - 4, width: cellWidth - 16, height: 22),
                            style: .headline),
                        ElementSnapshot(
                            elementType: .staticText, identifier: "catalog.item.\(index).price",
                            label: String(format: "$%d.%02d", 19 + index * 7 % 180, index * 37 % 100),
                            frame: CGRect(x: x + 8, y: y + cellWidth + 20, width: cellWidth - 16, height: 20),
                            style: .secondary),
                    ]))
        }
        return ScreenSnapshot(
            device: device,
            root: root(
                device,
                [
                    navigationBar(device, "Catalog", back: "Home"),
                    ElementSnapshot(
                        elementType: .collectionView, identifier: "catalog.grid", frame: grid, children: cells),
                ]))
    }

    /// Settings: switch rows on and off (one disabled), a plain row, a picker wheel and a destructive button.
    static func settings(_ device: Device = .iPhoneSE3) -> ScreenSnapshot {
        let w = device.width
        let top = device.safeAreaTop + 44
        let table = CGRect(x: 0, y: top, width: w, height: device.height - top - device.safeAreaBottom)
        func row(_ i: Int, _ id: String, _ label: String, value: String?, enabled: Bool = true) -> ElementSnapshot {
            let frame = CGRect(x: 0, y: top + 20 + Double(i) * 44, width: w, height: 44)
            var children: [ElementSnapshot] = []
            if let value {
                children.append(
                    ElementSnapshot(
                        elementType: .switch, identifier: id, label: label, value: value,
                        frame: CGRect(x: 16, y: frame.minY, width: w - 32, height: 44), isEnabled: enabled))
            } else {
                children.append(
                    ElementSnapshot(
                        elementType: .staticText, label: label,
                        frame: CGRect(x: 16, y: frame.minY, width: w - 32, height: 44)))
            }
            return ElementSnapshot(
                elementType: .cell, identifier: "settings.row.\(i)", label: label, frame: frame, isEnabled: enabled,
                children: children)
        }
        let wheelTop = top + 20 + 5 * 44 + 24
        let colours = ["Red", "Orange", "Yellow", "Green", "Blue", "Indigo", "Violet"]
        return ScreenSnapshot(
            device: device,
            root: root(
                device,
                [
                    navigationBar(device, "Settings", back: "Back"),
                    ElementSnapshot(
                        elementType: .table, identifier: "settings.table", frame: table,
                        children: [
                            row(0, "settings.notifications", "Notifications", value: "1"),
                            row(1, "settings.sounds", "Sounds", value: "0"),
                            row(2, "settings.autoUpdate", "Automatic Updates", value: "1", enabled: false),
                            row(3, "settings.language", "Language: English", value: nil),
                            row(
                                4, "settings.version", "Version 2.4.1 (1187), build from the release branch", value: nil
                            ),
                            ElementSnapshot(
                                elementType: .picker, identifier: "settings.accent",
                                frame: CGRect(x: 0, y: wheelTop, width: w, height: 180),
                                children: [
                                    ElementSnapshot(
                                        elementType: .pickerWheel, identifier: "settings.accent.wheel",
                                        value: "Blue, 5 of 7",
                                        frame: CGRect(x: 16, y: wheelTop, width: w - 32, height: 180),
                                        options: colours, selectedOption: 4)
                                ]),
                            ElementSnapshot(
                                elementType: .button, identifier: "settings.logout", label: "Log Out",
                                frame: CGRect(x: 16, y: wheelTop + 190, width: w - 32, height: 44), style: .destructive),
                        ]),
                ]))
    }
}
