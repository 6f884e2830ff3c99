import FailscopeModel
import Foundation
import ScreenRaster
import SimulatedUI

/// Captures the simulated screen: the foreground app's snapshot rendered by `ScreenRenderer`, encoded
/// by `PNGEncoder` (its default options, chosen for UI screens), and the snapshot's JSON as the
/// element tree. The renderer (and its glyph cache) is made once, at the first failure.
public struct SimulatedScreenCapture: ScreenCapture {
    private static let renderer = Result { () throws(FontError) -> ScreenRenderer in try ScreenRenderer() }

    public init() {}

    /// - Throws: `FontError` when DejaVu Sans is missing (install `fonts-dejavu-core`), `PNGError`.
    public func captureScreen() throws -> CapturedScreen? {
        guard let snapshot = SimulatedScreen.main.snapshot() else { return nil }
        let png = try Self.renderer.get().renderPNG(snapshot)
        let tree = try WireCoding.encoder().encode(snapshot)
        return CapturedScreen(
            png: png, pixelWidth: snapshot.device.pixelWidth, pixelHeight: snapshot.device.pixelHeight,
            elementTree: tree)
    }
}
