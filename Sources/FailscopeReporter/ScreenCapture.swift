import Foundation

/// What a failing test's screen looked like: the PNG and the element tree beside it.
public struct CapturedScreen: Sendable {
    /// PNG bytes (device pixels).
    public var png: Data
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The element tree as JSON (for the simulated screen, the `ScreenSnapshot` encoding: type,
    /// identifier, label, value, frame in points for every element).
    public var elementTree: Data

    public init(png: Data, pixelWidth: Int, pixelHeight: Int, elementTree: Data) {
        self.png = png
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.elementTree = elementTree
    }
}

/// Takes the screen at the moment of a failure: the reporter's screen-capture plug-in.
///
/// The reporter itself captures nothing. A UI test library registers an implementation with
/// `FailscopeReporter.useScreenCapture(_:)`: the `FailscopeSimulatedScreen` product's
/// `SimulatedScreenCapture` (which `PageObjects.UITestCase` registers for every test), or on Apple
/// platforms one over `XCUIScreen.main.screenshot()` and `XCUIApplication().snapshot()`.
public protocol ScreenCapture: Sendable {
    /// The device the screen belongs to; it becomes the run's device. `nil` when unknown.
    var device: ScreenDevice? { get }

    /// The screen now, or `nil` when no app is in the foreground.
    /// - Throws: when rendering or encoding fails (the reporter records the failure without a screenshot).
    func captureScreen() throws -> CapturedScreen?

    /// The element tree now as an in-memory copy, taken at every page-object step of a recorded test for
    /// the action trace (docs/trace.md); `nil` when no app is in the foreground. It must not render or
    /// encode: a passing test pays only for this copy. The default is `nil` (no trace trees).
    func snapshotElementTree() -> (any ElementTreeSnapshot)?
}

extension ScreenCapture {
    public func snapshotElementTree() -> (any ElementTreeSnapshot)? { nil }
}
