/// A decoded PNG: `width × height` pixels as straight (not premultiplied) RGBA8, rows top to bottom.
public struct PNGImage: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public var pixels: [UInt8]
}
