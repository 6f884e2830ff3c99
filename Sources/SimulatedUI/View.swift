/// A piece of content in an app's body, built with the static functions below (like SwiftUI views).
///
/// Every view carries an accessibility identifier (the app sets it from its identifier enum) and
/// becomes one element (or a small subtree) on the simulated screen.
public struct View {
    enum Kind {
        case text(String, ElementStyle)
        case button(String, ElementStyle, () -> Void)
        case textField(text: String, placeholder: String, isSecure: Bool, onChange: (String) -> Void)
        case toggle(label: String, isOn: Bool, onChange: (Bool) -> Void)
        case picker([PickerWheel])
        case image(String)
        case activityIndicator(String)
        case list(ElementType, [Cell])
        case spacer(Double)
    }

    var kind: Kind
    var identifier: String
    var isEnabled: Bool = true

    /// A static text; `style` sets its font (see `ElementStyle`).
    public static func text(_ text: String, id: String = "", style: ElementStyle = .body) -> View {
        View(kind: .text(text, style), identifier: id)
    }

    /// A button with a label; `filled` draws a tinted rounded rectangle.
    public static func button(
        _ label: String, id: String, style: ElementStyle = .filled, isEnabled: Bool = true,
        action: @escaping () -> Void
    ) -> View {
        View(kind: .button(label, style, action), identifier: id, isEnabled: isEnabled)
    }

    /// A text field showing `text` (the app's state) and reporting edits through `onChange`.
    public static func textField(
        id: String, text: String, placeholder: String, isSecure: Bool = false, onChange: @escaping (String) -> Void
    ) -> View {
        View(
            kind: .textField(text: text, placeholder: placeholder, isSecure: isSecure, onChange: onChange),
            identifier: id)
    }

    /// A labelled switch; its value reads `"1"` when on and `"0"` when off, as on iOS.
    public static func toggle(_ label: String, id: String, isOn: Bool, onChange: @escaping (Bool) -> Void) -> View {
        View(kind: .toggle(label: label, isOn: isOn, onChange: onChange), identifier: id)
    }

    /// A picker of one or more wheels, 216 pt tall.
    public static func picker(id: String, wheels: [PickerWheel]) -> View {
        View(kind: .picker(wheels), identifier: id)
    }

    /// An image, drawn as a placeholder glyph.
    public static func image(_ label: String, id: String = "") -> View {
        View(kind: .image(label), identifier: id)
    }

    /// A spinning activity indicator (shown while data loads).
    public static func activityIndicator(id: String, label: String = "In progress") -> View {
        View(kind: .activityIndicator(label), identifier: id)
    }

    /// A scrolling table (one row per cell, 56 pt) that fills the height left on the screen.
    public static func table(id: String, cells: [Cell]) -> View {
        View(kind: .list(.table, cells), identifier: id)
    }

    /// A scrolling grid of cells (2 columns on a phone, 4 on a pad, 150 pt rows).
    public static func collection(id: String, cells: [Cell]) -> View {
        View(kind: .list(.collectionView, cells), identifier: id)
    }

    /// Empty space.
    public static func spacer(_ height: Double) -> View {
        View(kind: .spacer(height), identifier: "")
    }
}
