import Foundation

/// A rectangle of whole device pixels: columns `x ..< x + width`, rows `y ..< y + height`, origin top left.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The pixels a frame in points covers at `scale` pixels per point.
    ///
    /// This mapping is part of the API: the renderer fills element frames exactly on these pixels and
    /// the dashboard outlines a failing element with it. Each edge is multiplied by the scale and
    /// rounded to the nearest pixel (halves away from zero):
    /// `x = round(minX × scale)`, `maxX = round(maxX × scale)`, `width = maxX − x` (same for y).
    /// For whole-point frames (the usual case) this is exactly `frame × scale`: the frame
    /// `{{16, 300}, {361, 50}}` at 3× is the pixels `x 48 ..< 1131`, `y 900 ..< 1050`.
    public init(frame: CGRect, scale: Int) {
        let s = Double(scale)
        let minX = Int(pixel: (frame.minX * s).rounded())
        let minY = Int(pixel: (frame.minY * s).rounded())
        let maxX = Int(pixel: (frame.maxX * s).rounded())
        let maxY = Int(pixel: (frame.maxY * s).rounded())
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public var minX: Int { x }
    public var minY: Int { y }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The pixels both rectangles cover (empty, at the origin of `self`, when they do not meet).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return PixelRect(x: x, y: y, width: 0, height: 0) }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= minX && px < maxX && py >= minY && py < maxY
    }

    /// This rectangle grown by `dx` pixels left and right and `dy` up and down (shrunk when negative).
    public func insetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The same rectangle as a `CGRect` in pixel units.
    public var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }

    public var description: String { "(\(x), \(y), \(width)×\(height) px)" }
}

extension Int {
    /// A pixel coordinate from a computed one: NaN becomes 0 and values are clamped to ±10,000,000,
    /// so that no frame, however wrong, traps the process that renders it.
    init(pixel value: Double) {
        self = value.isNaN ? 0 : Int(Swift.max(-10_000_000, Swift.min(10_000_000, value)))
    }
}
