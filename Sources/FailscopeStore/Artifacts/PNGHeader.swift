/// The facts of a PNG file's header, read without decoding pixels (PNG spec, ISO/IEC 15948 §5.2
/// signature, §11.2.2 IHDR, §11.2.5 IEND).
///
/// The store keeps this small reader so that it needs no image library: it checks the signature,
/// that IHDR is the first chunk with sane dimensions, a valid bit depth for its colour type, and that
/// the file ends with IEND (catches truncated uploads). It does not verify CRCs or inflate the image
/// data; the service additionally runs `ScreenRaster`'s `PNGDecoder.header(of:)` (IHDR CRC) before
/// storing an upload.
public struct PNGHeader: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var bitDepth: Int
    public var colorType: Int

    /// Largest accepted width or height in pixels (a 3x tablet screen is 2,732 px tall).
    public static let maximumDimension = 16_384

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Reads the header of `bytes`, or explains why they are not an acceptable PNG.
    ///
    /// - Throws: `StoreError.artifactRejected` with a one-line reason.
    public static func read(_ bytes: [UInt8]) throws(StoreError) -> PNGHeader {
        guard bytes.count >= 8 + 25 + 12, Array(bytes[0..<8]) == signature else {
            throw .artifactRejected("the bytes are not a PNG (bad signature)")
        }
        func uint32(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        guard uint32(8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw .artifactRejected("the PNG does not start with an IHDR chunk")
        }
        let width = uint32(16)
        let height = uint32(20)
        guard (1...maximumDimension).contains(width), (1...maximumDimension).contains(height) else {
            throw .artifactRejected("the PNG is \(width)x\(height) pixels; each side must be 1...\(maximumDimension)")
        }
        let bitDepth = Int(bytes[24])
        let colorType = Int(bytes[25])
        let allowedDepths: [Int: Set<Int>] = [
            0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
        ]
        guard allowedDepths[colorType]?.contains(bitDepth) == true else {
            throw .artifactRejected("the PNG has an invalid bit depth \(bitDepth) for colour type \(colorType)")
        }
        guard Array(bytes.suffix(12)) == iend else {
            throw .artifactRejected("the PNG does not end with an IEND chunk (truncated upload?)")
        }
        return PNGHeader(width: width, height: height, bitDepth: bitDepth, colorType: colorType)
    }
}
