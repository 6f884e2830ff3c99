import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client over one TCP connection to 127.0.0.1, so tests control exactly what is sent
/// (dot segments, encodings, keep-alive, a body the server should refuse) and see exactly what comes back.
/// Reads time out after 5 s.
public final class RawHTTPClient {
    public struct Reply {
        public let status: Int
        public let headers: [(String, String)]
        public let body: Data

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    private let fd: Int32
    private var buffer = Data()

    /// Connects to `127.0.0.1:port`.
    /// - Throws: ``Failure`` when the connection cannot be made.
    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect() to port \(port) failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends raw bytes.
    /// - Throws: ``Failure`` when the peer no longer accepts them (it closed the connection).
    public func send(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
                offset += n
            }
        }
    }

    public func send(_ text: String) throws { try send(Data(text.utf8)) }

    /// Sends one request with `Host` and (when there is a body) `Content-Length`.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: Data = Data()
    ) throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try send(Data((head + "\r\n").utf8) + body)
        return try readReply(forHead: method == "HEAD")
    }

    /// Reads one response: status line, headers, then `Content-Length` bytes (none for HEAD/304/204).
    public func readReply(forHead: Bool = false) throws -> Reply {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil { try fill() }
        let end = buffer.range(of: separator)!
        let head = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        buffer = Data(buffer[end.upperBound...])
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let reply = Reply(status: status, headers: headers, body: Data())
        var length = Int(reply.header("Content-Length") ?? "0") ?? 0
        if forHead || status == 304 || status == 204 { length = 0 }
        while buffer.count < length { try fill() }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return Reply(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (reads EOF within the receive timeout).
    public func readsEndOfStream() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    /// Whether the server closed the connection within `seconds` (end of stream or reset). A byte that arrives
    /// instead is kept for ``readReply(forHead:)``.
    public func isClosed(within seconds: Double) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        if n > 0 {
            buffer.append(byte)
            return false
        }
        return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// The next response head as text (status line and header fields, up to the empty line), or what arrived
    /// within `timeout` seconds when no whole head did; what follows the head is kept for ``readReply(forHead:)``.
    public func readHead(timeout: Double) -> String {
        let separator = Data("\r\n\r\n".utf8)
        let deadline = Date().addingTimeInterval(timeout)
        while buffer.range(of: separator) == nil, Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { break }
            guard (try? fill()) != nil else { break }
        }
        guard let end = buffer.range(of: separator) else {
            defer { buffer = Data() }
            return String(decoding: buffer, as: UTF8.self)
        }
        defer { buffer = Data(buffer[end.upperBound...]) }
        return String(decoding: buffer[buffer.startIndex..<end.upperBound], as: UTF8.self)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { throw Failure(description: n == 0 ? "connection closed" : "recv() failed: errno \(errno)") }
        buffer.append(contentsOf: chunk[0..<n])
    }
}
