import FailscopeReporter
import Foundation
import SimulatedUI
import XCTest

/// The base of every page object: constructed with the app, owns every reusable interaction
/// (waits, taps, typing, asserts, scrolling, picker wheels, screenshots).
///
/// Every method takes `file: StaticString = #filePath, line: UInt = #line`; a page passes its own
/// caller's `file`/`line` through, so a failure points at the test's line, not at the page. Each
/// call is recorded in the `PageTrail` as `PageName.method()` with that call site and the target
/// element's frame. Methods are `open` so a page can override a wait without re-implementing it.
open class BasePage {
    /// The timeout of every wait unless a call gives its own, in seconds of app time.
    open class var defaultTimeout: TimeInterval { 5 }

    public let app: SimulatedApp
    public let trail: PageTrail

    /// The page's name in the trail and in reports: its type name (`LoginPage`).
    public var pageName: String { String(describing: Swift.type(of: self)) }

    /// Enters the page: records it in the trail with the call site.
    public required init(
        app: SimulatedApp, trail: PageTrail = .shared, file: StaticString = #filePath, line: UInt = #line
    ) {
        self.app = app
        self.trail = trail
        trail.enter(page: String(describing: Swift.type(of: self)), file: "\(file)", line: Int(line))
    }

    // MARK: Waits

    /// Waits until `element` exists; fails at the call site when it does not within `timeout`.
    @discardableResult
    open func waitForAppearance(
        of element: SimulatedElement, timeout: TimeInterval? = nil, file: StaticString = #filePath,
        line: UInt = #line, function: StaticString = #function
    ) -> Bool {
        waitFor(element, .exists, timeout: timeout, file: file, line: line, function: function)
    }

    /// Waits until `element` no longer exists; fails at the call site when it still does.
    @discardableResult
    open func waitForDisappearance(
        of element: SimulatedElement, timeout: TimeInterval? = nil, file: StaticString = #filePath,
        line: UInt = #line, function: StaticString = #function
    ) -> Bool {
        waitFor(element, .doesNotExist, timeout: timeout, file: file, line: line, function: function)
    }

    /// Waits until `condition` holds for `element`; fails at the call site when it does not.
    @discardableResult
    open func waitFor(
        _ element: SimulatedElement, _ condition: ElementCondition, timeout: TimeInterval? = nil,
        file: StaticString = #filePath, line: UInt = #line, function: StaticString = #function
    ) -> Bool {
        guard step(function, element, file, line) else { return false }
        let seconds = timeout ?? Self.defaultTimeout
        if element.wait(for: condition, timeout: seconds) {
            record(function, element, file, line)
            return true
        }
        fail(
            "\(pageName): timed out after \(Self.format(seconds)) s waiting until \(element.description) \(condition)"
                + currentState(of: element), file: file, line: line)
        return false
    }

    // MARK: Actions

    /// Waits for `element` to be hittable, then taps it.
    open func tap(
        _ element: SimulatedElement, timeout: TimeInterval? = nil, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        guard waitFor(element, .hittable, timeout: timeout, file: file, line: line, function: function) else { return }
        element.tap(file: file, line: line)
    }

    /// Taps the field, deletes its text and types `text`.
    open func type(
        _ text: String, into element: SimulatedElement, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        guard waitFor(element, .hittable, file: file, line: line, function: function) else { return }
        element.tap(file: file, line: line)
        element.clearText(file: file, line: line)
        element.typeText(text, file: file, line: line)
    }

    /// Swipes `scrollView` until `element` exists and is hittable: up first, then back down when
    /// the content stops moving (seed 004's scroll helper). Fails when it never shows.
    @discardableResult
    open func scrollTo(
        _ element: SimulatedElement, in scrollView: SimulatedElement, maxSwipes: Int = 20,
        file: StaticString = #filePath, line: UInt = #line, function: StaticString = #function
    ) -> Bool {
        guard waitFor(scrollView, .exists, file: file, line: line, function: function) else { return false }
        for direction in [true, false] {
            var swipes = 0
            while swipes < maxSwipes {
                if element.exists && element.isHittable {
                    record(function, element, file, line)
                    return true
                }
                let before = scrollView.children(matching: .any).firstMatch.frame
                if direction {
                    scrollView.swipeUp(file: file, line: line)
                } else {
                    scrollView.swipeDown(file: file, line: line)
                }
                swipes += 1
                if scrollView.children(matching: .any).firstMatch.frame == before { break }
            }
        }
        if element.exists && element.isHittable { return true }
        fail(
            "\(pageName): \(element.description) never became visible in \(scrollView.description)", file: file,
            line: line)
        return false
    }

    // MARK: Picker wheels (seed 002: values unknown in advance)

    /// The wheel's value taken apart, or a failure when it has none.
    open func pickerValue(
        of wheel: SimulatedElement, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) -> PickerWheelValue? {
        guard waitFor(wheel, .exists, file: file, line: line, function: function) else { return nil }
        guard let text = wheel.value, let value = PickerWheelValue(text) else {
            fail(
                "\(pageName): \(wheel.description) has no picker value (\(wheel.value ?? "nil"))", file: file,
                line: line)
            return nil
        }
        return value
    }

    /// Moves the wheel one value on by tapping 30 points below its centre.
    open func selectNextOption(
        of wheel: SimulatedElement, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        guard waitFor(wheel, .hittable, file: file, line: line, function: function) else { return }
        wheel.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.5)).withOffset(CGVector(dx: 0, dy: 30))
            .tap(file: file, line: line)
    }

    /// Moves the wheel one value back by tapping 30 points above its centre.
    open func selectPreviousOption(
        of wheel: SimulatedElement, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        guard waitFor(wheel, .hittable, file: file, line: line, function: function) else { return }
        wheel.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.5)).withOffset(CGVector(dx: 0, dy: -30))
            .tap(file: file, line: line)
    }

    /// Moves the wheel to the 1-based `position`, one value at a time.
    open func selectOption(
        at position: Int, of wheel: SimulatedElement, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        for _ in 0..<64 {
            guard let value = pickerValue(of: wheel, file: file, line: line, function: function) else { return }
            guard (1...value.count).contains(position) else {
                return fail(
                    "\(pageName): \(wheel.description) has \(value.count) values; position \(position) does not exist",
                    file: file, line: line)
            }
            if value.position == position { return }
            if value.position < position {
                selectNextOption(of: wheel, file: file, line: line, function: function)
            } else {
                selectPreviousOption(of: wheel, file: file, line: line, function: function)
            }
        }
        fail("\(pageName): \(wheel.description) did not reach position \(position)", file: file, line: line)
    }

    // MARK: Asserts

    /// Asserts that `element` exists now or within the default timeout.
    open func assertExists(
        _ element: SimulatedElement, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        waitFor(element, .exists, file: file, line: line, function: function)
    }

    /// Asserts that `element`'s label becomes `expected`.
    open func assertLabel(
        of element: SimulatedElement, equals expected: String, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        waitFor(element, .labelEquals(expected), file: file, line: line, function: function)
    }

    /// Asserts that `element`'s value becomes `expected`.
    open func assertValue(
        of element: SimulatedElement, equals expected: String, file: StaticString = #filePath, line: UInt = #line,
        function: StaticString = #function
    ) {
        waitFor(element, .valueEquals(expected), file: file, line: line, function: function)
    }

    /// An immutable copy of the screen now (what a failure screenshot is rendered from).
    open func screenshot() -> ScreenSnapshot {
        app.snapshot()
    }

    /// Records a failure at the call site (once per test; see `TestFailure`).
    open func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        TestFailure.record(message, file: file, line: line, trail: trail)
    }

    // MARK: Trail

    /// Records the step and tells whether to go on (nothing runs after the test's first failure).
    private func step(_ function: StaticString, _ element: SimulatedElement, _ file: StaticString, _ line: UInt) -> Bool
    {
        guard !trail.hasFailed else { return false }
        record(function, element, file, line)
        return true
    }

    private func record(_ function: StaticString, _ element: SimulatedElement, _ file: StaticString, _ line: UInt) {
        let frame = element.frame
        trail.record(
            page: pageName, action: Self.actionName("\(function)"), file: "\(file)", line: Int(line),
            targetFrame: frame == .zero ? nil : frame)
    }

    private func currentState(of element: SimulatedElement) -> String {
        guard let snapshot = element.snapshot() else { return " (no such element on screen)" }
        return " (now: \(snapshot.elementType.displayName) label '\(snapshot.label)'"
            + (snapshot.value.map { ", value '\($0)'" } ?? "") + (snapshot.isHittable ? "" : ", not hittable") + ")"
    }

    /// `tapLogin(file:line:)` → `tapLogin()`; `typeEmail(_:file:line:)` → `typeEmail(_:)`.
    public static func actionName(_ function: String) -> String {
        guard let open = function.firstIndex(of: "(") else { return function + "()" }
        let labels = function[function.index(after: open)...].dropLast().split(
            separator: ":", omittingEmptySubsequences: false
        )
        .dropLast().filter { $0 != "file" && $0 != "line" && $0 != "function" }
        return function[..<open] + "(" + labels.map { $0 + ":" }.joined() + ")"
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// A page object: a base page that can verify it is the screen showing.
public protocol Page: BasePage {
    /// Verifies the page is on screen (its distinctive elements exist) and returns it.
    func verifyShown(file: StaticString, line: UInt) -> Self
}
