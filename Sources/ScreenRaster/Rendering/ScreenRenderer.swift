import Foundation
import SimulatedUI

/// Draws a `ScreenSnapshot` as the iOS screen a tester would recognize, at device pixels.
///
/// The canvas is `device.pixelWidth × device.pixelHeight` (points × scale: 1179×2556 for iPhone 15,
/// 1290×2796 for iPhone 15 Pro Max), opaque, in iOS's light appearance. Painting order: the element
/// tree depth first, parents below children, children of tables, collection views, scroll views and
/// picker wheels clipped to their frame; then the status bar (9:41, signal, battery, the Dynamic
/// Island on 59 pt safe areas) and the home indicator; then each alert over a dimmed (20 % black)
/// screen. Text is DejaVu Sans through FreeType (see `FontSet`).
///
/// Bad geometry never traps: NaN or huge frames are clamped, a device scale outside 1...4 is clamped,
/// and a canvas is at most 10,000 pixels a side.
///
/// Element frames map to pixels as `pixelRect(for:on:)` says; filled element backgrounds cover exactly
/// those pixels, so an outline drawn from a frame in points lines up with the element in the PNG.
///
/// One renderer keeps its glyph cache between renders; it is safe to share between threads (renders
/// are serialized by a lock).
public final class ScreenRenderer: @unchecked Sendable {
    private let lock = NSLock()
    private let glyphs: GlyphCache

    /// A renderer drawing text with `fonts`.
    /// - Throws: `FontError.freeType` when FreeType cannot open the files.
    public init(fonts: FontSet) throws(FontError) {
        glyphs = try GlyphCache(fonts: fonts)
    }

    /// A renderer drawing text with DejaVu Sans found by `FontSet.locate()`.
    /// - Throws: `FontError.notFound` (naming `fonts-dejavu-core`) or `.freeType`.
    public convenience init() throws(FontError) {
        try self.init(fonts: FontSet.locate())
    }

    /// The screen as an opaque canvas at device pixels.
    public func render(_ snapshot: ScreenSnapshot) -> Canvas {
        lock.lock()
        defer { lock.unlock() }
        var painter = ScreenPainter(device: snapshot.device, text: TextRenderer(cache: glyphs))
        painter.paint(snapshot.root)
        return painter.canvas
    }

    /// The screen as a PNG (see `PNGEncoder`).
    /// - Throws: `PNGError` when encoding fails.
    public func renderPNG(_ snapshot: ScreenSnapshot, encoder: PNGEncoder = PNGEncoder()) throws(PNGError) -> Data {
        try encoder.encode(render(snapshot))
    }

    /// The pixels of the PNG that a frame in points covers on `device`: `PixelRect(frame:scale:)`,
    /// each edge multiplied by `device.scale` and rounded to the nearest pixel. The frame
    /// `{{16, 300}, {361, 50}}` on an iPhone 15 (3×) is `x 48 ..< 1131, y 900 ..< 1050`.
    public static func pixelRect(for frame: CGRect, on device: Device) -> PixelRect {
        PixelRect(frame: frame, scale: device.scale)
    }
}
