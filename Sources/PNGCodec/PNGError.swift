/// Why a PNG could not be encoded or decoded.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not start with the 8-byte PNG signature (PNG spec §5.2).
    case notPNG
    /// The data ends before the image does.
    case truncated
    /// The header (IHDR) is malformed: wrong length, unknown colour type or bit depth, bad CRC.
    case invalidHeader(String)
    /// The image is larger than the decoder's limits.
    case tooLarge(width: Int, height: Int, limit: String)
    /// libpng rejected the data or the parameters; the message is libpng's.
    case libpng(String)
    /// An allocation failed.
    case outOfMemory

    public var description: String {
        switch self {
        case .notPNG: "not a PNG: the PNG signature is missing"
        case .truncated: "truncated PNG: the data ends before the image does"
        case .invalidHeader(let why): "invalid PNG header: \(why)"
        case .tooLarge(let width, let height, let limit): "PNG of \(width)×\(height) pixels exceeds \(limit)"
        case .libpng(let message): "libpng: \(message)"
        case .outOfMemory: "out of memory while processing a PNG"
        }
    }
}
