import Foundation
import Synchronization

/// Request ids: accepted from the client when well-formed, otherwise made by the server.
///
/// A made id is 16 lowercase hex digits: a random 32-bit prefix fixed per process, then a 32-bit counter,
/// so ids are unique within a process and unlikely to collide across restarts. Making one costs one atomic add.
public enum RequestID {
    private static let prefix = UInt32.random(in: .min ... .max)
    private static let counter = Atomic<UInt32>(0)

    /// A new server-made id, for example `"3fa2c91b0000002a"`.
    public static func make() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        let value = UInt64(prefix) << 32 | UInt64(n)
        return String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for i in 0..<16 {
                buffer[i] = digits.utf8Start[Int((value >> UInt64(60 - 4 * i)) & 0xF)]
            }
            return 16
        }
    }

    /// `candidate` if it is 1...64 characters of `[A-Za-z0-9._-]`, otherwise `nil` (so a client cannot inject
    /// text into logs or headers).
    public static func accept(_ candidate: String?) -> String? {
        guard let candidate, !candidate.isEmpty, candidate.utf8.count <= 64 else { return nil }
        for byte in candidate.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return nil
            }
        }
        return candidate
    }
}
