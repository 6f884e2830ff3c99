import CPNGShim
import Foundation

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

    /// The default ``maxDimension``: 10,000 pixels a side, far above any device screen (a 3x tablet's is
    /// 2,048 × 2,732) and far below what would exhaust memory. Every PNG Failscope accepts is held to it.
    public static let defaultMaxDimension = 10_000
    /// The default ``maxPixelCount``: 25 million pixels (100 MB decoded to RGBA8).
    public static let defaultMaxPixelCount = 25_000_000

    /// A decoder within `maxDimension` pixels a side and `maxPixelCount` pixels.
    public init(maxDimension: Int = defaultMaxDimension, maxPixelCount: Int = defaultMaxPixelCount) {
        precondition(maxDimension > 0 && maxPixelCount > 0)
        self.maxDimension = maxDimension
        self.maxPixelCount = maxPixelCount
    }

    /// The 8-byte PNG signature (PNG spec §5.2).
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The 12-byte IEND chunk that ends every PNG (PNG spec §11.2.5): length 0, type, CRC. A file that does not end
    /// with it was cut short.
    public static let endChunk: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

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
        _ = try read(data) { bytes, count, side, pixelLimit, width, height, message, capacity in
            fs_png_verify(bytes, count, side, side, pixelLimit, &width, &height, message, capacity)
        }
        return header
    }

    /// Decodes every pixel to RGBA8.
    /// - Throws: what `validate(_:)` throws; `PNGError.truncated` when the data stops before the
    ///   image ends; `.libpng` for corrupt chunks, CRCs or image data; `.outOfMemory`.
    public func decode(_ data: Data) throws(PNGError) -> PNGImage {
        _ = try validate(data)
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        let (width, height) = try read(data) { bytes, count, side, pixelLimit, width, height, message, capacity in
            fs_png_decode_rgba(bytes, count, side, side, pixelLimit, &pixels, &width, &height, message, capacity)
        }
        guard let pixels else { throw .outOfMemory }
        defer { fs_png_free(pixels) }
        let count = Int(width) * Int(height) * 4
        return PNGImage(
            width: Int(width), height: Int(height),
            pixels: [UInt8](UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// Runs one of the shim's reads (`call`: the bytes and their count, the side and pixel limits, the dimensions
    /// it sets, a message buffer and its capacity; returns an `FS_PNG_*` code) with this decoder's limits.
    /// - Returns: the dimensions the read set.
    /// - Throws: `PNGError` for any code but `FS_PNG_OK`.
    private func read(
        _ data: Data,
        _ call: (
            _ bytes: UnsafePointer<UInt8>?, _ count: Int, _ side: UInt32, _ pixelLimit: UInt64,
            _ width: inout UInt32, _ height: inout UInt32, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
        ) -> Int32
    ) throws(PNGError) -> (width: UInt32, height: UInt32) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let side = UInt32(min(maxDimension, Int(UInt32.max)))
        let code = data.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                call(
                    raw.bindMemory(to: UInt8.self).baseAddress, raw.count, side, UInt64(maxPixelCount), &width,
                    &height, text.baseAddress, text.count)
            }
        }
        if code == Int32(FS_PNG_TOO_LARGE) {
            throw .tooLarge(width: Int(width), height: Int(height), limit: "\(maxPixelCount) pixels")
        }
        guard code == Int32(FS_PNG_OK) else { throw PNGError(code: code, message: message) }
        return (width, height)
    }
}
