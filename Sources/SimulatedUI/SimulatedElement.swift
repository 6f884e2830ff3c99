import Foundation

/// An element on the simulated screen, found lazily by its query, as `XCUIElement`.
///
/// Reading an attribute resolves the query against the current screen (an element that does not
/// exist reads as empty: `exists == false`, `frame == .zero`). Actions need exactly one hittable
/// match; otherwise they report a failure naming the query and the screen to the app's failure
/// handler, blamed on `file`/`line`, and do nothing.
public struct SimulatedElement: Sendable, CustomStringConvertible, ElementQuerying {
    let app: SimulatedApp
    /// The query that finds this element, as failure messages name it.
    public let description: String
    let locate: @Sendable (ElementNode) -> [ElementNode]

    private func read<T>(_ body: (ElementNode?) -> T) -> T {
        app.withTree { body(locate($0).first) }
    }

    // MARK: Attributes

    public var exists: Bool { read { $0 != nil } }
    public var elementType: ElementType? { read { $0?.elementType } }
    public var identifier: String { read { $0?.identifier ?? "" } }
    public var label: String { read { $0?.label ?? "" } }
    /// Field text (the placeholder when empty, dots when secure), `"1"`/`"0"` for a switch,
    /// `"Blue, 3 of 7"` for a picker wheel.
    public var value: String? { read { $0?.value } }
    public var placeholderValue: String? { read { $0?.placeholderValue } }
    /// Frame in points, screen coordinates; `.zero` when the element does not exist.
    public var frame: CGRect { read { $0?.frame ?? .zero } }
    public var isEnabled: Bool { read { $0?.isEnabled ?? false } }
    public var isSelected: Bool { read { $0?.isSelected ?? false } }
    public var hasFocus: Bool { read { $0?.hasFocus ?? false } }
    /// On screen, inside every enclosing scroll view's viewport, not covered by an alert.
    public var isHittable: Bool { read { $0?.isHittable ?? false } }
    /// How many elements the query matches now (1 when it is unambiguous).
    public var matchCount: Int { app.withTree { locate($0).count } }

    /// An immutable copy of the element and its subtree, or `nil` when it does not exist.
    public func snapshot() -> ElementSnapshot? { read { $0?.snapshot } }

    /// The element and its subtree as `debugDescription` prints them.
    public var debugDescription: String {
        read { node in
            guard let node else { return "No matches found for \(description)" }
            return ScreenSnapshot(device: app.device, root: node.snapshot).treeDescription
        }
    }

    // MARK: Queries

    public func descendants(matching type: ElementType) -> ElementQuery {
        let locate = self.locate
        return ElementQuery(app: app, description: "\(type.displayName) descendants of \(description)") { root in
            Array(locate(root).prefix(1)).flatMap { $0.descendants.filter { type == .any || $0.elementType == type } }
        }
    }

    public func children(matching type: ElementType) -> ElementQuery {
        let locate = self.locate
        return ElementQuery(app: app, description: "\(type.displayName) children of \(description)") { root in
            Array(locate(root).prefix(1)).flatMap { $0.children.filter { type == .any || $0.elementType == type } }
        }
    }

    // MARK: Waits

    /// Waits until the element exists, at most `timeout` seconds of app time; `true` when it does.
    public func waitForExistence(timeout: TimeInterval) -> Bool {
        wait(for: .exists, timeout: timeout)
    }

    /// Waits until the element no longer exists; `true` when it is gone within `timeout`.
    public func waitForNonExistence(timeout: TimeInterval) -> Bool {
        wait(for: .doesNotExist, timeout: timeout)
    }

    /// Waits until `condition` holds, at most `timeout` seconds of app time (no wall time passes:
    /// the app's virtual clock jumps to its next scheduled event); `true` when it holds.
    public func wait(for condition: ElementCondition, timeout: TimeInterval) -> Bool {
        app.wait(timeout: timeout) { app.withTree { condition.holds(for: locate($0)) } }
    }

    // MARK: Actions

    /// Taps the element: focuses a text field, flips a switch, presses a button or cell.
    public func tap(file: StaticString = #filePath, line: UInt = #line) {
        app.perform("tap", on: self, file: file, line: line) { node in
            activate(node)
        }
    }

    /// Types `text` into the element, which must have keyboard focus (tap it first).
    public func typeText(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        app.perform("type into", on: self, requireHittable: false, file: file, line: line) { node in
            guard node.hasFocus, let onChange = node.onTextChange else {
                return app.fail(
                    "Failed to type into \(description): neither the element nor any descendant has keyboard focus "
                        + "(tap the field first).", file, line)
            }
            onChange((node.contentText ?? "") + text)
        }
    }

    /// Focuses the text field and deletes its text.
    public func clearText(file: StaticString = #filePath, line: UInt = #line) {
        app.perform("clear text of", on: self, file: file, line: line) { node in
            guard let onChange = node.onTextChange else {
                return app.fail(
                    "Failed to clear text of \(description): it is not a text field (\(node.line)).", file, line)
            }
            app.setFocus(node.key)
            onChange("")
        }
    }

    /// Scrolls the enclosing scroll view so its content moves up by 80% of a viewport.
    public func swipeUp(file: StaticString = #filePath, line: UInt = #line) { swipe(1, file: file, line: line) }
    /// Scrolls the enclosing scroll view so its content moves down by 80% of a viewport.
    public func swipeDown(file: StaticString = #filePath, line: UInt = #line) { swipe(-1, file: file, line: line) }
    /// Horizontal swipes: no simulated view scrolls horizontally, so they change nothing.
    public func swipeLeft(file: StaticString = #filePath, line: UInt = #line) { swipe(0, file: file, line: line) }
    public func swipeRight(file: StaticString = #filePath, line: UInt = #line) { swipe(0, file: file, line: line) }

    private func swipe(_ direction: Double, file: StaticString, line: UInt) {
        app.perform("swipe", on: self, requireHittable: false, file: file, line: line) { node in
            guard direction != 0,
                let container = node.scrollContainer
                    ?? node.descendants.first(where: {
                        $0.elementType.isScrollContainer
                    })
            else { return }
            app.scroll(container, by: direction * container.frame.height * 0.8)
        }
    }

    /// Selects `value` on a picker wheel.
    public func adjust(toPickerWheelValue value: String, file: StaticString = #filePath, line: UInt = #line) {
        app.perform("adjust", on: self, file: file, line: line) { node in
            guard node.elementType == .pickerWheel, let onSelect = node.onSelect else {
                return app.fail("Failed to adjust \(description): it is not a picker wheel (\(node.line)).", file, line)
            }
            guard let index = node.options.firstIndex(of: value) else {
                return app.fail(
                    "Failed to adjust \(description) to '\(value)': not one of its values "
                        + node.options.map { "'\($0)'" }.joined(separator: ", "), file, line)
            }
            onSelect(index)
        }
    }

    /// A point relative to the element: `(0, 0)` its top-left corner, `(1, 1)` its bottom-right.
    public func coordinate(withNormalizedOffset offset: CGVector) -> SimulatedCoordinate {
        SimulatedCoordinate(element: self, normalizedOffset: offset, offset: CGVector(dx: 0, dy: 0))
    }

    /// What a tap on `node` does (shared with coordinate taps).
    func activate(_ node: ElementNode) {
        guard node.isEnabled else { return }
        if node.onTextChange != nil { app.setFocus(node.key) }
        node.onTap?()
    }
}
