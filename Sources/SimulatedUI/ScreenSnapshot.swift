import Foundation

/// The foreground app's screen at one moment: the device and the element tree (root `application`).
///
/// This is what the rasterizer draws and what the reporter stores as the element tree JSON beside a
/// failure screenshot. Its JSON is the `Codable` encoding of this type (frames as
/// `[[x, y], [width, height]]` in points).
public struct ScreenSnapshot: Codable, Sendable, Hashable {
    public var device: Device
    public var root: ElementSnapshot
    /// Seconds on the app's clock when the snapshot was taken.
    public var time: Double

    public init(device: Device, root: ElementSnapshot, time: Double = 0) {
        self.device = device
        self.root = root
        self.time = time
    }

    /// The element tree as `debugDescription` prints it: one line an element, indented by depth.
    public var treeDescription: String {
        var lines: [String] = []
        func walk(_ element: ElementSnapshot, depth: Int) {
            lines.append(String(repeating: "  ", count: depth) + ElementSnapshot.line(for: element))
            for child in element.children { walk(child, depth: depth + 1) }
        }
        walk(root, depth: 0)
        return lines.joined(separator: "\n")
    }
}

extension ElementSnapshot {
    /// One line describing an element as XCUITest's `debugDescription` does:
    /// `Button, {{16.0, 300.0}, {361.0, 50.0}}, identifier: 'login.submit', label: 'Log In'`.
    static func line(for element: ElementSnapshot) -> String {
        let f = element.frame
        var text =
            "\(element.elementType.displayName), {{\(f.origin.x), \(f.origin.y)}, {\(f.size.width), \(f.size.height)}}"
        if !element.identifier.isEmpty { text += ", identifier: '\(element.identifier)'" }
        if !element.label.isEmpty { text += ", label: '\(element.label)'" }
        if let placeholder = element.placeholderValue, !placeholder.isEmpty {
            text += ", placeholderValue: '\(placeholder)'"
        }
        if let value = element.value { text += ", value: \(value)" }
        if !element.isEnabled { text += ", Disabled" }
        if element.isSelected { text += ", Selected" }
        if element.hasFocus { text += ", Focused" }
        return text
    }
}

extension ElementType {
    /// The capitalized name `debugDescription` uses: `Button`, `StaticText`, `NavigationBar`.
    public var displayName: String {
        rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }
}
