import Foundation

/// The screen at one moment for the price of a reference: the app's element tree as it was built, made into a
/// `ScreenSnapshot` only when asked (the action trace keeps one per page step and encodes them only when the
/// test fails).
///
/// Safe to keep and send: the app never changes a tree it has built; when the screen changes it builds a new
/// one. Holding the handle keeps that tree (and its handlers) alive.
public struct ScreenSnapshotHandle: @unchecked Sendable {
    let device: Device
    let root: ElementNode
    let time: Double

    /// The snapshot the screen was at that moment (the same as `SimulatedApp.snapshot()` then).
    public var snapshot: ScreenSnapshot { ScreenSnapshot(device: device, root: root.snapshot, time: time) }
}
