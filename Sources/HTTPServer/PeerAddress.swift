#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A peer's socket address, kept raw and formatted only when asked (`"127.0.0.1:53422"`, `"[::1]:53422"`).
enum PeerAddress: Sendable, CustomStringConvertible {
    case ipv4(in_addr_t, port: UInt16)
    case ipv6(in6_addr, port: UInt16)
    case text(String)

    /// Copies an IPv4 or IPv6 socket address; `nil` for none or another family.
    init?(_ address: UnsafePointer<sockaddr>?) {
        guard let address else { return nil }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self = .ipv4(ipv4.sin_addr.s_addr, port: UInt16(bigEndian: ipv4.sin_port))
        case AF_INET6:
            let ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            self = .ipv6(ipv6.sin6_addr, port: UInt16(bigEndian: ipv6.sin6_port))
        default:
            return nil
        }
    }

    var description: String {
        switch self {
        case .text(let text):
            return text
        case .ipv4(let address, let port):
            var host = in_addr(s_addr: address)
            return "\(Self.format(AF_INET, &host)):\(port)"
        case .ipv6(let address, let port):
            var host = address
            return "[\(Self.format(AF_INET6, &host))]:\(port)"
        }
    }

    private static func format(_ family: Int32, _ address: UnsafeRawPointer) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        guard inet_ntop(family, address, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension in6_addr: @retroactive @unchecked Sendable {}
