import CPNGShim
import Foundation

/// Encodes RGB pixels as PNG (8-bit RGB, no alpha, not interlaced) through libpng; `ScreenRaster` adds canvases.
///
/// Screens are opaque, so no alpha channel is written; a canvas's colour channels are written as
/// stored (a non-opaque canvas comes out composited over black). libpng's errors come back as
/// `PNGError`; the process is never aborted (libpng's `setjmp` is kept in the `CPNGShim` C target).
///
/// The defaults come from measurements on flat UI screens (see `Options.screen`); the compression
/// parameters are those of zlib (RFC 1950/1951) and the PNG filter types of the PNG spec §9.
public struct PNGEncoder: Sendable {
    /// PNG row filters (PNG spec §9.2). libpng tries every selected filter on each row and keeps the best.
    public struct Filters: OptionSet, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let none = Filters(rawValue: Int32(FS_PNG_FILTER_NONE))
        public static let sub = Filters(rawValue: Int32(FS_PNG_FILTER_SUB))
        public static let up = Filters(rawValue: Int32(FS_PNG_FILTER_UP))
        public static let average = Filters(rawValue: Int32(FS_PNG_FILTER_AVG))
        public static let paeth = Filters(rawValue: Int32(FS_PNG_FILTER_PAETH))
        public static let all: Filters = [.none, .sub, .up, .average, .paeth]
        /// Chosen per row by the encoder instead of libpng: UP for a row equal to the one above, else
        /// whichever of NONE, SUB and UP has the smallest sum of absolute filtered values.
        public static let perRowNoneSubUp = Filters(rawValue: Int32(FS_PNG_FILTER_PER_ROW_NONE_SUB_UP))
        /// Per row: UP for a repeated row, else SUB or UP by the same measure.
        public static let perRowSubUp = Filters(rawValue: Int32(FS_PNG_FILTER_PER_ROW_SUB_UP))
        /// Per row: UP for a repeated row, else NONE.
        public static let perRowRepeatUp = Filters(rawValue: Int32(FS_PNG_FILTER_PER_ROW_REPEAT_UP))
    }

    /// zlib's compression strategy (`deflateInit2`'s `strategy`).
    public enum Strategy: Int32, Sendable, Hashable, CaseIterable {
        case `default` = 0
        case filtered = 1
        case huffmanOnly = 2
        case rle = 3
        case fixed = 4
    }

    /// Compression parameters.
    public struct Options: Sendable, Hashable {
        /// zlib level 0 (store) … 9 (smallest, slowest).
        public var compressionLevel: Int
        public var filters: Filters
        public var strategy: Strategy

        public init(compressionLevel: Int, filters: Filters, strategy: Strategy) {
            precondition((0...9).contains(compressionLevel), "zlib compression level is 0...9")
            self.compressionLevel = compressionLevel
            self.filters = filters
            self.strategy = strategy
        }

        /// Tuned for rendered UI screens: zlib level 6, the filter chosen per row (UP for a row equal
        /// to the one above, which filters to zeros, else NONE), default strategy. Measured on the
        /// sample app's catalog at 1290×2796 (`raster-bench --sweep`, fastest of 9 runs on a shared
        /// 2-core machine): this 107.9 KB in ~70 ms; level 6 unfiltered 113.3 KB in ~66 ms; libpng's
        /// all-filter choice 115.7 KB in ~117 ms; level 3 unfiltered 166 KB in ~40 ms. Pillow at
        /// `compress_level=6` writes 118.4 KB for the same pixels.
        public static let screen = Options(compressionLevel: 6, filters: .perRowRepeatUp, strategy: .default)
        /// libpng's own defaults: level 6, every filter, default strategy.
        public static let libpngDefault = Options(compressionLevel: 6, filters: .all, strategy: .default)
    }

    public var options: Options

    public init(options: Options = .screen) {
        self.options = options
    }

    /// Encodes packed 8-bit RGB pixels: `height` rows of `width × 3` bytes, top to bottom.
    /// - Throws: `PNGError` when libpng fails.
    /// - Precondition: `rgb.count == width × height × 3`, both sides positive.
    public func encode(rgb: [UInt8], width: Int, height: Int) throws(PNGError) -> Data {
        precondition(rgb.count == width * height * 3, "RGB data of \(rgb.count) bytes is not \(width)×\(height)×3")
        return try rgb.withUnsafeBufferPointer { (buffer) throws(PNGError) -> Data in
            try encode(pixels: buffer, width: width, height: height, rowBytes: width * 3, bytesPerPixel: 3)
        }
    }

    /// Encodes `height` rows of `rowBytes` bytes, top to bottom, each holding `width` pixels of
    /// `bytesPerPixel` bytes: 3 (RGB) or 4 (RGBX, the fourth byte dropped: a canvas's layout).
    /// - Throws: `PNGError` when libpng fails.
    /// - Precondition: both sides positive, `bytesPerPixel` 3 or 4, and `pixels` holds every row.
    public func encode(
        pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, rowBytes: Int, bytesPerPixel: Int32
    ) throws(PNGError) -> Data {
        precondition(width > 0 && height > 0 && width <= Int(Int32.max) && height <= Int(Int32.max))
        precondition(bytesPerPixel == 3 || bytesPerPixel == 4, "a pixel is 3 (RGB) or 4 (RGBX) bytes")
        precondition(rowBytes >= width * Int(bytesPerPixel) && pixels.count >= rowBytes * height)
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let code = message.withUnsafeMutableBufferPointer { text in
            fs_png_encode(
                pixels.baseAddress, UInt32(width), UInt32(height), rowBytes, bytesPerPixel,
                Int32(options.compressionLevel), options.filters.rawValue, options.strategy.rawValue, &out, &size,
                text.baseAddress, text.count)
        }
        guard code == Int32(FS_PNG_OK), let out else {
            throw PNGError(code: code, message: message)
        }
        defer { fs_png_free(out) }
        return Data(bytes: out, count: size)
    }

    /// The libpng version linked, as `1.6.39`.
    public static var libpngVersion: String { String(cString: fs_png_version()) }
}

extension PNGError {
    /// The error for a CPNGShim result code and its message buffer.
    init(code: Int32, message: [CChar]) {
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        switch code {
        case Int32(FS_PNG_NO_MEMORY): self = .outOfMemory
        case Int32(FS_PNG_TRUNCATED): self = .truncated
        default: self = .libpng(text.isEmpty ? "unknown error (code \(code))" : text)
        }
    }
}
