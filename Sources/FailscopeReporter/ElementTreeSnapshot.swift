import Foundation

/// The element tree at one moment, as a capture plug-in copies it: cheap to take (no rendering, no
/// encoding), held in memory by the page trail, encoded only when the test fails (the action trace).
///
/// The simulated screen's is a `ScreenSnapshotHandle`, a reference to the app's element tree as built (the app
/// never changes a built tree); a plug-in over XCUITest would hold an `XCUIElementSnapshot`.
public protocol ElementTreeSnapshot: Sendable {
    /// The tree as JSON, in the encoding of `CapturedScreen.elementTree`.
    /// - Throws: when encoding fails (the step keeps no tree).
    func encodedTree() throws -> Data
}
