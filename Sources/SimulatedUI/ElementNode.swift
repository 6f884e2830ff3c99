import Foundation

/// One live element of the current screen: its accessibility attributes, frame and handlers.
///
/// Built by `ScreenLayout` from an app's body each time the screen changes; never shown to tests
/// (they hold lazy `SimulatedElement`s). `key` identifies the element across rebuilds (by its
/// identifier where it has one, else by position) for keyboard focus and scroll offsets.
final class ElementNode {
    let elementType: ElementType
    var identifier: String
    var label: String
    var value: String?
    var placeholderValue: String?
    var frame: CGRect
    var isEnabled = true
    var isSelected = false
    var hasFocus = false
    var isHittable = false
    var style: ElementStyle?
    var options: [String] = []
    var selectedOption: Int?
    var children: [ElementNode] = []
    weak var parent: ElementNode?
    var key = ""

    /// A text field's real text (its `value` shows the placeholder when empty, dots when secure).
    var contentText: String?
    var onTap: (() -> Void)?
    var onTextChange: ((String) -> Void)?
    var onSelect: ((Int) -> Void)?
    /// For scroll containers: the height of the scrolled content and the current offset (points).
    var contentHeight: Double = 0
    var contentOffset: Double = 0

    init(_ type: ElementType, identifier: String = "", label: String = "", frame: CGRect) {
        self.elementType = type
        self.identifier = identifier
        self.label = label
        self.frame = frame
    }

    func add(_ child: ElementNode) {
        child.parent = self
        children.append(child)
    }

    /// This node's descendants, depth first (not the node itself).
    var descendants: [ElementNode] {
        var out: [ElementNode] = []
        func walk(_ node: ElementNode) {
            for child in node.children {
                out.append(child)
                walk(child)
            }
        }
        walk(self)
        return out
    }

    /// The nearest ancestor (or self) that scrolls.
    var scrollContainer: ElementNode? {
        var node: ElementNode? = self
        while let current = node {
            if current.elementType.isScrollContainer { return current }
            node = current.parent
        }
        return nil
    }

    /// Moves this subtree by `dy` points.
    func shift(by dy: Double) {
        frame.origin.y += dy
        for child in children { child.shift(by: dy) }
    }

    /// Whether `node` is this node or one of its descendants.
    func contains(_ node: ElementNode) -> Bool {
        var current: ElementNode? = node
        while let candidate = current {
            if candidate === self { return true }
            current = candidate.parent
        }
        return false
    }

    var snapshot: ElementSnapshot { snapshot(children: children.map(\.snapshot)) }

    func snapshot(children: [ElementSnapshot]) -> ElementSnapshot {
        ElementSnapshot(
            elementType: elementType, identifier: identifier, label: label, value: value,
            placeholderValue: placeholderValue, frame: frame, isEnabled: isEnabled, isSelected: isSelected,
            hasFocus: hasFocus, isHittable: isHittable, style: style, options: options,
            selectedOption: selectedOption, children: children)
    }

    /// One line as `debugDescription` prints it.
    var line: String { ElementSnapshot.line(for: snapshot(children: [])) }
}
