/// The facts in a PNG's header chunk (IHDR, PNG spec §11.2.2).
public struct PNGHeader: Hashable, Sendable {
    /// PNG colour types (PNG spec §11.2.2, table 11.1).
    public enum ColorType: UInt8, Sendable, Hashable {
        case grayscale = 0
        case rgb = 2
        case indexed = 3
        case grayscaleAlpha = 4
        case rgba = 6
    }

    public var width: Int
    public var height: Int
    /// Bits per sample (or per palette index): 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    public var colorType: ColorType
    /// Adam7 interlacing.
    public var isInterlaced: Bool
}
