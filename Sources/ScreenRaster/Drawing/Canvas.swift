import CRasterKernels
import Foundation

/// A raster image in memory: `width × height` pixels, RGBA8, premultiplied alpha, rows top to bottom.
///
/// Layout: `pixels[(y × width + x) × 4 + c]` with `c` = 0 red, 1 green, 2 blue, 3 alpha. Colour channels
/// are premultiplied by alpha (decided once, for the whole module): blending is then
/// `out = src + dst × (1 − srcAlpha)` per channel. A screen is opaque, so for rendered screens the
/// premultiplied and straight values are the same.
///
/// Geometry passed as `CGRect`/`CGPoint` to the shape calls is in **pixels** (not points), with
/// `(0, 0)` the top-left corner of the top-left pixel; shapes are anti-aliased by their coverage of
/// each pixel. `PixelRect` calls fill whole pixels. Every drawing call is clipped to the current clip
/// rectangle (see `pushClip(_:)`).
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    /// Premultiplied RGBA8, `width × height × 4` bytes.
    public private(set) var pixels: [UInt8]
    private var clipStack: [PixelRect] = []

    /// The whole canvas.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    /// The rectangle drawing is currently clipped to (the canvas bounds when no clip is pushed).
    public var clipRect: PixelRect { clipStack.last ?? bounds }

    /// A canvas filled with `background`.
    /// - Precondition: `width` and `height` are positive.
    public init(width: Int, height: Int, background: RGBAColor = .clear) {
        precondition(width > 0 && height > 0, "a canvas needs a positive size, got \(width)×\(height)")
        self.width = width
        self.height = height
        let p = Canvas.premultiplied(background)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        if p != (0, 0, 0, 0) {
            let word = Canvas.word(p)
            bytes.withUnsafeMutableBufferPointer { buffer in
                UnsafeMutableRawPointer(buffer.baseAddress!).withMemoryRebound(
                    to: UInt32.self, capacity: width * height
                ) {
                    fs_raster_fill_words($0, width * height, word)
                }
            }
        }
        self.pixels = bytes
    }

    // MARK: Reading

    /// The straight (un-premultiplied) colour of the pixel at `(x, y)`.
    /// - Precondition: the pixel is inside the canvas.
    public func pixel(x: Int, y: Int) -> RGBAColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let i = (y * width + x) * 4
        let a = pixels[i + 3]
        if a == 255 || a == 0 {
            return RGBAColor(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: a)
        }
        func un(_ v: UInt8) -> UInt8 { UInt8(min(255, (Int(v) * 255 + Int(a) / 2) / Int(a))) }
        return RGBAColor(red: un(pixels[i]), green: un(pixels[i + 1]), blue: un(pixels[i + 2]), alpha: a)
    }

    /// The pixels as packed RGB (3 bytes a pixel, `width × height × 3` bytes): the colour channels
    /// as stored, which for a non-opaque canvas is the image composited over black.
    public func rgbBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<(width * height) {
                    dst[i * 3] = src[i * 4]
                    dst[i * 3 + 1] = src[i * 4 + 1]
                    dst[i * 3 + 2] = src[i * 4 + 2]
                }
            }
        }
        return out
    }

    /// Calls `body` with the premultiplied RGBA bytes (see the type's layout).
    public func withUnsafePixels<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try pixels.withUnsafeBufferPointer(body)
    }

    // MARK: Clipping

    /// Restricts drawing to `rect` intersected with the current clip, until the matching `popClip()`.
    public mutating func pushClip(_ rect: PixelRect) {
        clipStack.append(clipRect.intersection(rect))
    }

    /// Restores the clip that was current before the last `pushClip(_:)`.
    /// - Precondition: a clip was pushed.
    public mutating func popClip() {
        precondition(!clipStack.isEmpty, "popClip() without a matching pushClip(_:)")
        clipStack.removeLast()
    }

    /// Temporarily drops every pushed clip (drawing covers the whole canvas) and returns the saved stack
    /// for `restoreClips(_:)`; used for overlays such as an alert's dimming.
    public mutating func suspendClips() -> [PixelRect] {
        defer { clipStack = [] }
        return clipStack
    }

    /// Puts back a clip stack returned by `suspendClips()`.
    public mutating func restoreClips(_ saved: [PixelRect]) {
        clipStack = saved
    }

    // MARK: Filling
    //
    // The per-pixel loops are C (CRasterKernels): a failing test renders in its debug build, where
    // Swift pixel loops run about ten times slower, and a versioned dependency may not force -O.

    /// Blends `color` over every pixel of `rect` (whole pixels, clipped).
    public mutating func fill(_ rect: PixelRect, color: RGBAColor) {
        let r = rect.intersection(clipRect)
        guard !r.isEmpty, color.alpha > 0 else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer {
            fs_raster_fill_box($0.baseAddress!, width, Canvas.box(r), Canvas.color(color))
        }
    }

    /// Fills a rectangle given in pixels with corners rounded to `radius` pixels, anti-aliased.
    ///
    /// Coverage of a pixel is the distance of its centre from the shape's outline, clamped to one
    /// pixel (a signed-distance approximation of area coverage, exact for straight edges on pixel centres).
    public mutating func fillRoundedRect(_ rect: CGRect, radius: Double, color: RGBAColor) {
        guard color.alpha > 0, rect.width > 0, rect.height > 0 else { return }
        let box = pixelBounds(of: rect)
        guard !box.isEmpty else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer {
            fs_raster_fill_rounded_rect(
                $0.baseAddress!, width, Canvas.box(box), fs_raster_rounded_rect(rect, radius: radius),
                Canvas.color(color))
        }
    }

    /// Strokes the outline of a rounded rectangle (pixels) with a line `lineWidth` pixels wide, drawn
    /// inside the rectangle.
    public mutating func strokeRoundedRect(_ rect: CGRect, radius: Double, lineWidth: Double, color: RGBAColor) {
        guard color.alpha > 0, rect.width > 0, rect.height > 0, lineWidth > 0 else { return }
        let outer = fs_raster_rounded_rect(rect, radius: radius)
        let inner = fs_raster_rounded_rect(
            rect.insetBy(dx: lineWidth, dy: lineWidth), radius: max(0, outer.radius - lineWidth))
        let box = pixelBounds(of: rect)
        guard !box.isEmpty else { return }
        let band = Int(pixel: (lineWidth + outer.radius).rounded(.up)) + 2
        let width = self.width
        pixels.withUnsafeMutableBufferPointer {
            fs_raster_stroke_rounded_rect(
                $0.baseAddress!, width, Canvas.box(box), outer, inner, inner.isEmpty ? 1 : 0, lineWidth, band,
                Canvas.color(color))
        }
    }

    /// Fills a circle (centre and radius in pixels), anti-aliased.
    public mutating func fillCircle(center: CGPoint, radius: Double, color: RGBAColor) {
        fillRoundedRect(
            CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius),
            radius: radius, color: color)
    }

    /// Draws a straight line with round caps from `start` to `end` (pixels), `lineWidth` pixels wide.
    public mutating func strokeLine(from start: CGPoint, to end: CGPoint, lineWidth: Double, color: RGBAColor) {
        guard color.alpha > 0, lineWidth > 0 else { return }
        let half = lineWidth / 2
        let box = pixelBounds(
            of: CGRect(
                x: min(start.x, end.x) - half - 1, y: min(start.y, end.y) - half - 1,
                width: abs(end.x - start.x) + lineWidth + 2, height: abs(end.y - start.y) + lineWidth + 2))
        guard !box.isEmpty else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer {
            fs_raster_stroke_line(
                $0.baseAddress!, width, Canvas.box(box), start.x, start.y, end.x, end.y, half, Canvas.color(color))
        }
    }

    /// Fills a convex polygon (vertices in pixels, either winding), anti-aliased.
    public mutating func fillConvexPolygon(_ points: [CGPoint], color: RGBAColor) {
        guard points.count >= 3, color.alpha > 0 else { return }
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let box = pixelBounds(
            of: CGRect(
                x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!))
        guard !box.isEmpty else { return }
        // Signed area decides the winding, so that every edge's inward normal points inside.
        var area = 0.0
        for i in points.indices {
            let a = points[i]
            let b = points[(i + 1) % points.count]
            area += a.x * b.y - b.x * a.y
        }
        let sign: Double = area > 0 ? 1 : -1
        let edges = points.indices.map { i in
            let a = points[i]
            let b = points[(i + 1) % points.count]
            let ex = b.x - a.x
            let ey = b.y - a.y
            let length = max(1e-9, (ex * ex + ey * ey).squareRoot())
            return fs_raster_edge(ax: a.x, ay: a.y, nx: -ey / length * sign, ny: ex / length * sign)
        }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            edges.withUnsafeBufferPointer {
                fs_raster_fill_convex_polygon(
                    buffer.baseAddress!, width, Canvas.box(box), $0.baseAddress!, $0.count, Canvas.color(color))
            }
        }
    }

    /// Blends `color` through an 8-bit coverage mask (0 transparent … 255 opaque) whose top-left pixel
    /// lands on `(x, y)`: how glyph bitmaps are drawn. `rowBytes` is the mask's row stride.
    public mutating func blend(
        mask: UnsafeBufferPointer<UInt8>, maskWidth: Int, maskHeight: Int, rowBytes: Int, x: Int, y: Int,
        color: RGBAColor
    ) {
        guard color.alpha > 0, let maskStart = mask.baseAddress else { return }
        let target = PixelRect(x: x, y: y, width: maskWidth, height: maskHeight).intersection(clipRect)
        guard !target.isEmpty else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer {
            fs_raster_blend_mask(
                $0.baseAddress!, width, Canvas.box(target), maskStart, rowBytes, x, y, Canvas.color(color))
        }
    }

    // MARK: Internals

    /// The whole pixels touched by a pixel-space rectangle, clipped.
    private func pixelBounds(of rect: CGRect) -> PixelRect {
        let x0 = Int(pixel: rect.minX.rounded(.down))
        let y0 = Int(pixel: rect.minY.rounded(.down))
        let x1 = Int(pixel: rect.maxX.rounded(.up))
        let y1 = Int(pixel: rect.maxY.rounded(.up))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(clipRect)
    }

    static func box(_ rect: PixelRect) -> fs_raster_box {
        fs_raster_box(x0: rect.minX, y0: rect.minY, x1: rect.maxX, y1: rect.maxY)
    }

    static func color(_ color: RGBAColor) -> fs_raster_color {
        fs_raster_color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }

    static func premultiplied(_ c: RGBAColor) -> (UInt8, UInt8, UInt8, UInt8) {
        let a = Int(c.alpha)
        return (
            UInt8((Int(c.red) * a + 127) / 255), UInt8((Int(c.green) * a + 127) / 255),
            UInt8((Int(c.blue) * a + 127) / 255), c.alpha
        )
    }

    static func word(_ p: (UInt8, UInt8, UInt8, UInt8)) -> UInt32 {
        // Memory order R, G, B, A on a little-endian machine.
        UInt32(p.0) | UInt32(p.1) << 8 | UInt32(p.2) << 16 | UInt32(p.3) << 24
    }
}

extension Canvas {
    /// Blends through `blend(mask:…)` with a mask given as an array.
    mutating func blend(mask: [UInt8], maskWidth: Int, maskHeight: Int, x: Int, y: Int, color: RGBAColor) {
        mask.withUnsafeBufferPointer { m in
            blend(mask: m, maskWidth: maskWidth, maskHeight: maskHeight, rowBytes: maskWidth, x: x, y: y, color: color)
        }
    }
}

extension fs_raster_rounded_rect {
    /// The rounded rectangle `rect` (pixels), its radius clamped to half the shorter side.
    init(_ rect: CGRect, radius: Double) {
        self.init(
            min_x: rect.minX, min_y: rect.minY, max_x: rect.maxX, max_y: rect.maxY,
            radius: max(0, min(radius, rect.width / 2, rect.height / 2)))
    }

    var isEmpty: Bool { max_x <= min_x || max_y <= min_y }
}
