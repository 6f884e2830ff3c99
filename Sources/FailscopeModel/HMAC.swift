import CCrypto
import Foundation

/// HMAC-SHA256 (RFC 2104 with SHA-256, test vectors in RFC 4231) through libcrypto's one-shot `HMAC`; webhook
/// deliveries are signed with it (`X-Failscope-Signature: sha256=<hex>`).
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    public static func mac(key: some DataProtocol, message: some DataProtocol) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let keyBytes = Data(key)
        let messageBytes = Data(message)
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBytes { messageBuffer in
                // A nil key pointer with length 0 is refused by some libcrypto builds: point at a byte instead.
                withUnsafeBytes(of: UInt8(0)) { empty in
                    HMAC(
                        EVP_sha256(), keyBuffer.baseAddress ?? empty.baseAddress, Int32(keyBuffer.count),
                        messageBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                            ?? empty.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        messageBuffer.count, &digest, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "HMAC(SHA-256) failed")
        return digest
    }

    /// The MAC of `message` under `key` as 64 lowercase hexadecimal characters.
    public static func hex(key: some DataProtocol, message: some DataProtocol) -> String {
        SHA256.hexString(mac(key: key, message: message))
    }
}
