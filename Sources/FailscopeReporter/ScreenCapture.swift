import Foundation

/// What a failing test's screen looked like: the PNG and the element tree beside it.
public struct CapturedScreen: Sendable {
    /// PNG bytes (RGB, device pixels).
    public var png: Data
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The element tree as JSON (the `ScreenSnapshot` encoding: type, identifier, label, value,
    /// frame in points for every element).
    public var elementTree: Data

    public init(png: Data, pixelWidth: Int, pixelHeight: Int, elementTree: Data) {
        self.png = png
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.elementTree = elementTree
    }
}

/// Takes the screen at the moment of a failure. The simulated screen implements it here; an
/// implementation over `XCUIScreen.main.screenshot()` and `XCUIApplication().snapshot()` fits the
/// same shape on Apple platforms without touching the rest of the reporter.
public protocol ScreenCapture: Sendable {
    /// The screen now, or `nil` when no app is in the foreground.
    /// - Throws: when rendering or encoding fails (the reporter records the failure without a screenshot).
    func captureScreen() throws -> CapturedScreen?
}
