import CCrypto
import Foundation

/// SHA-256 (FIPS 180-4) through libcrypto's `EVP_Digest`; artifacts are named by it.
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hexadecimal characters.
    public static func hex(of bytes: some DataProtocol) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let contiguous = Data(bytes)
        let ok = contiguous.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return hexString(digest)
    }

    /// Whether `text` has the shape of a SHA-256 hex digest: 64 lowercase hexadecimal characters.
    public static func isValidHex(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `bytes` as lowercase hexadecimal, two characters a byte.
    static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
