import FailscopeModel
import FailscopeReporter
import Foundation
import ScreenRaster
import SimulatedUI

/// Captures the simulated screen: the foreground app's snapshot rendered by `ScreenRenderer`, encoded
/// by `PNGEncoder` (its default options, chosen for UI screens), and the snapshot's JSON as the
/// element tree. The renderer (and its glyph cache) is made once, at the first failure.
///
/// Register it with one line, `FailscopeReporter.useScreenCapture(SimulatedScreenCapture(device: device))`;
/// `PageObjects.UITestCase` and `SimulatedApp.launchForTesting()` do it for each test.
public struct SimulatedScreenCapture: ScreenCapture {
    private static let renderer = Result { () throws(FontError) -> ScreenRenderer in try ScreenRenderer() }

    /// The simulated device the tests drive: the run's device, its OS marked "(simulated)".
    public let simulatedDevice: Device

    public init(device: Device = .current) {
        self.simulatedDevice = device
    }

    public var device: ScreenDevice? {
        ScreenDevice(name: simulatedDevice.name, osVersion: "\(simulatedDevice.osVersion) (simulated)")
    }

    /// - Throws: `FontError` when DejaVu Sans is missing (install `fonts-dejavu-core`), `PNGError`.
    public func captureScreen() throws -> CapturedScreen? {
        guard let snapshot = SimulatedScreen.main.snapshot() else { return nil }
        let png = try Self.renderer.get().renderPNG(snapshot)
        return CapturedScreen(
            png: png, pixelWidth: snapshot.device.pixelWidth, pixelHeight: snapshot.device.pixelHeight,
            elementTree: try WireCoding.encoder().encode(snapshot))
    }

    /// The foreground app's screen as a `ScreenSnapshotHandle`: a reference to its element tree, nothing copied,
    /// rendered or encoded until the test fails.
    public func snapshotElementTree() -> (any ElementTreeSnapshot)? {
        SimulatedScreen.main.snapshotHandle().map(SimulatedElementTree.init(screen:))
    }
}
