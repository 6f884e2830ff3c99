/// A real PNG (8-bit RGB, stored deflate blocks, correct CRCs) of one colour, for artifact tests.
public enum TestPNG {
    public static func make(width: Int, height: Int, red: UInt8 = 200) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for _ in 0..<width { raw += [red, 40, 90] }
        }
        var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", stored(raw))
            + chunk("IEND", [])
    }

    /// A 1-bit grayscale PNG of `width`×`height` (a multiple of 8 wide), black but for `mark` in its first byte:
    /// small on the wire (one bit a pixel, `height × (width / 8 + 1)` bytes stored) but `width × height × 4` bytes
    /// once decoded to RGBA, as a hostile upload would be.
    public static func grayscale1Bit(width: Int, height: Int, mark: UInt8 = 0) -> [UInt8] {
        precondition(width % 8 == 0)
        var raw = [UInt8](repeating: 0, count: height * (width / 8 + 1))
        raw[1] = mark
        var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        ihdr += [1, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", stored(raw))
            + chunk("IEND", [])
    }

    /// `raw` as a zlib stream of stored (uncompressed) deflate blocks.
    static func stored(_ raw: [UInt8]) -> [UInt8] {
        var zlib: [UInt8] = [0x78, 0x01]
        zlib.reserveCapacity(raw.count + raw.count / 65_535 * 5 + 16)
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        return zlib
    }

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
