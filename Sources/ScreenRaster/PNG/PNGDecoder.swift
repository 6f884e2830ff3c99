import CPNGShim
import Foundation

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

/// A decoded PNG: `width × height` pixels as straight (not premultiplied) RGBA8, rows top to bottom.
public struct PNGImage: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public var pixels: [UInt8]

    /// The colour at `(x, y)`.
    /// - Precondition: the pixel is inside the image.
    public func pixel(x: Int, y: Int) -> RGBAColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let i = (y * width + x) * 4
        return RGBAColor(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
    }
}

/// Reads PNGs through libpng, within limits: for tests, and for the service to validate uploads.
///
/// `header(of:)` checks only the signature and the header chunk (a few dozen bytes, no libpng);
/// `validate(_:)` adds the size limits; `verify(_:)` reads every row, which also verifies the chunk CRCs and
/// the zlib stream of the image data, keeping one row in memory; `decode(_:)` also keeps every pixel. Any colour type and bit depth decodes to RGBA8.
public struct PNGDecoder: Sendable {
    /// Largest width and height accepted, in pixels.
    public var maxDimension: Int
    /// Largest `width × height` accepted.
    public var maxPixelCount: Int

    /// Defaults: 10,000 pixels a side, 25 million pixels (100 MB decoded), far above any device screen
    /// (the iPad's is 1640×2360) and far below what would exhaust memory.
    public init(maxDimension: Int = 10_000, maxPixelCount: Int = 25_000_000) {
        precondition(maxDimension > 0 && maxPixelCount > 0)
        self.maxDimension = maxDimension
        self.maxPixelCount = maxPixelCount
    }

    /// The 8-byte PNG signature (PNG spec §5.2).
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The header of a PNG, checking only the signature and the IHDR chunk (its length, fields and CRC).
    /// - Throws: `PNGError.notPNG` without the signature, `.truncated` when the data stops inside the
    ///   header, `.invalidHeader` for a malformed IHDR.
    public static func header(of data: Data) throws(PNGError) -> PNGHeader {
        let bytes = [UInt8](data.prefix(33))
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            // A prefix of the signature is a truncated PNG, anything else is not a PNG.
            if !bytes.isEmpty && bytes.count < 8 && Array(signature[0..<bytes.count]) == bytes { throw .truncated }
            throw .notPNG
        }
        guard bytes.count == 33 else { throw .truncated }
        func be32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        guard be32(8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw .invalidHeader("the first chunk is not a 13-byte IHDR")
        }
        guard CRC32.checksum(bytes[12..<29]) == be32(29) else { throw .invalidHeader("IHDR CRC mismatch") }
        let width = be32(16)
        let height = be32(20)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .invalidHeader("width and height must be 1 … 2³¹−1, got \(width)×\(height)")
        }
        let depth = Int(bytes[24])
        guard let colorType = PNGHeader.ColorType(rawValue: bytes[25]) else {
            throw .invalidHeader("unknown colour type \(bytes[25])")
        }
        let allowed: [Int] =
            switch colorType {
            case .grayscale: [1, 2, 4, 8, 16]
            case .indexed: [1, 2, 4, 8]
            case .rgb, .grayscaleAlpha, .rgba: [8, 16]
            }
        guard allowed.contains(depth) else {
            throw .invalidHeader("bit depth \(depth) is not allowed for colour type \(colorType.rawValue)")
        }
        guard bytes[26] == 0, bytes[27] == 0 else { throw .invalidHeader("unknown compression or filter method") }
        guard bytes[28] <= 1 else { throw .invalidHeader("unknown interlace method \(bytes[28])") }
        return PNGHeader(
            width: Int(width), height: Int(height), bitDepth: depth, colorType: colorType, isInterlaced: bytes[28] == 1)
    }

    /// The header, once it is also within this decoder's size limits (no pixels are decoded).
    /// - Throws: what `header(of:)` throws, and `PNGError.tooLarge`.
    public func validate(_ data: Data) throws(PNGError) -> PNGHeader {
        let header = try PNGDecoder.header(of: data)
        if header.width > maxDimension || header.height > maxDimension {
            throw .tooLarge(width: header.width, height: header.height, limit: "\(maxDimension) pixels a side")
        }
        if header.width * header.height > maxPixelCount {
            throw .tooLarge(width: header.width, height: header.height, limit: "\(maxPixelCount) pixels")
        }
        return header
    }

    /// Checks the whole PNG as ``decode(_:)`` does (chunk CRCs, the zlib stream, every row) without keeping the
    /// image: memory stays at one row (at most `maxDimension × 8` bytes) whatever the image's size, so a
    /// service can verify uploads that declare 25 million pixels without holding 100 MB each.
    /// - Returns: the header.
    /// - Throws: what ``decode(_:)`` throws, except `.outOfMemory` for the image.
    public func verify(_ data: Data) throws(PNGError) -> PNGHeader {
        let header = try validate(data)
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let limitSide = UInt32(min(maxDimension, Int(UInt32.max)))
        let code = data.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                fs_png_verify(
                    raw.bindMemory(to: UInt8.self).baseAddress, raw.count, limitSide, limitSide,
                    UInt64(maxPixelCount), &width, &height, text.baseAddress, text.count)
            }
        }
        if code == Int32(FS_PNG_TOO_LARGE) {
            throw .tooLarge(width: Int(width), height: Int(height), limit: "\(maxPixelCount) pixels")
        }
        guard code == Int32(FS_PNG_OK) else { throw PNGError(code: code, message: message) }
        return header
    }

    /// Decodes every pixel to RGBA8.
    /// - Throws: what `validate(_:)` throws; `PNGError.truncated` when the data stops before the
    ///   image ends; `.libpng` for corrupt chunks, CRCs or image data; `.outOfMemory`.
    public func decode(_ data: Data) throws(PNGError) -> PNGImage {
        _ = try validate(data)
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let limitSide = UInt32(min(maxDimension, Int(UInt32.max)))
        let code = data.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                fs_png_decode_rgba(
                    raw.bindMemory(to: UInt8.self).baseAddress, raw.count, limitSide, limitSide,
                    UInt64(maxPixelCount), &pixels, &width, &height, text.baseAddress, text.count)
            }
        }
        if code == Int32(FS_PNG_TOO_LARGE) {
            throw .tooLarge(width: Int(width), height: Int(height), limit: "\(maxPixelCount) pixels")
        }
        guard code == Int32(FS_PNG_OK), let pixels else { throw PNGError(code: code, message: message) }
        defer { fs_png_free(pixels) }
        let count = Int(width) * Int(height) * 4
        return PNGImage(
            width: Int(width), height: Int(height),
            pixels: [UInt8](UnsafeBufferPointer(start: pixels, count: count)))
    }
}

/// CRC-32 as PNG uses it (PNG spec, Annex D; the ISO 3309 / ITU-T V.42 polynomial).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
