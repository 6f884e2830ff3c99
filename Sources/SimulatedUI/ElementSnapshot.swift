import Foundation

/// An immutable copy of one element and its subtree at one moment, as `XCUIElementSnapshot`.
///
/// Frames are in points, in screen coordinates (scroll offsets already applied), so a child of a
/// scroll view may lie partly or wholly outside its viewport: drawing clips it to the scroll view's
/// frame. Only materialized children are present (cells far outside a viewport are not, as on iOS).
public struct ElementSnapshot: Codable, Sendable, Hashable {
    public var elementType: ElementType
    public var identifier: String
    public var label: String
    /// The value as XCUITest reports it: text of a field (dots for a secure field), `"1"`/`"0"` for a
    /// switch, `"Blue, 3 of 7"` for a picker wheel; `nil` when the element has none.
    public var value: String?
    public var placeholderValue: String?
    public var frame: CGRect
    public var isEnabled: Bool
    public var isSelected: Bool
    public var hasFocus: Bool
    /// Whether a tap at the centre would reach the element (on screen, inside every enclosing
    /// viewport, not covered by an alert).
    public var isHittable: Bool
    /// Rendering hint set by the app.
    public var style: ElementStyle?
    /// A picker wheel's values, in order; empty for every other element.
    public var options: [String]
    /// The index of a picker wheel's selected value in `options`.
    public var selectedOption: Int?
    public var children: [ElementSnapshot]

    public init(
        elementType: ElementType,
        identifier: String = "",
        label: String = "",
        value: String? = nil,
        placeholderValue: String? = nil,
        frame: CGRect,
        isEnabled: Bool = true,
        isSelected: Bool = false,
        hasFocus: Bool = false,
        isHittable: Bool = true,
        style: ElementStyle? = nil,
        options: [String] = [],
        selectedOption: Int? = nil,
        children: [ElementSnapshot] = []
    ) {
        self.elementType = elementType
        self.identifier = identifier
        self.label = label
        self.value = value
        self.placeholderValue = placeholderValue
        self.frame = frame
        self.isEnabled = isEnabled
        self.isSelected = isSelected
        self.hasFocus = hasFocus
        self.isHittable = isHittable
        self.style = style
        self.options = options
        self.selectedOption = selectedOption
        self.children = children
    }

    /// This element and every descendant, depth first, parents before children.
    public var allElements: [ElementSnapshot] {
        var out: [ElementSnapshot] = []
        func walk(_ element: ElementSnapshot) {
            out.append(element)
            element.children.forEach(walk)
        }
        walk(self)
        return out
    }
}
