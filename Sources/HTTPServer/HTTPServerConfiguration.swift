import Foundation

/// Settings of an ``HTTPServer``: where it listens, its threads, its limits and timeouts.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal, or `localhost` (= `127.0.0.1`). Default `127.0.0.1`.
    public var host: String
    /// The TCP port; 0 picks a free ephemeral port (read it back from ``HTTPServer/port``). Default 8080.
    public var port: Int
    /// Worker threads, each with its own poll loop; handlers run on them. Default: the number of active cores.
    public var threadCount: Int
    /// Seconds a connection may stay idle (no bytes either way) before it is closed. Default 30.
    public var connectionTimeout: Int
    /// Seconds a connection may take to send a whole request head (request line and header fields), counted from
    /// its accept, or from the end of its previous response on a kept-alive connection. A client that sends its
    /// head slowly (a byte now and then keeps the idle timeout from firing) is closed without an answer (the head
    /// is incomplete, so there is nothing to answer); so is a kept-alive connection idle this long. Checked about
    /// 5 times a second. Default 10.
    public var requestHeadTimeout: Double
    /// Least average body rate, bytes per second, a request must keep once ``bodyRateGracePeriod`` seconds of
    /// its body have passed; a slower client is closed (the access log records 408). 0 turns the check off.
    /// Default 1024.
    public var minimumBodyBytesPerSecond: Int
    /// Seconds of body upload before ``minimumBodyBytesPerSecond`` applies. Default 5.
    public var bodyRateGracePeriod: Double
    /// Seconds a request may take from its headers to its last body byte. A slower upload is cut off: the
    /// connection is closed and the access log records 408 (libmicrohttpd 0.9.75 cannot send a response in the
    /// middle of a body). Checked as body chunks arrive; a stalled client is cut by `connectionTimeout`. Default 60.
    public var requestTimeout: Double
    /// Most simultaneous connections; more are closed at accept. The server raises the process's soft limit of
    /// open files to hold them (up to the hard limit). Default 4096.
    public var connectionLimit: Int
    /// Most simultaneous connections from one IP address; more from that address are closed at accept, so one
    /// client cannot take the whole ``connectionLimit``. 0 means no per-address cap (behind a proxy every client
    /// has the proxy's address). Default 64.
    public var connectionsPerAddressLimit: Int
    /// Body bytes a request keeps in memory; a longer body goes to an unlinked temporary file in
    /// ``bodySpoolDirectory`` as it arrives, and the handler's ``Request/body`` maps that file (page cache, not
    /// process memory). When the file cannot be written the answer is 507 `insufficient_storage`. Default 1 MiB.
    public var bodyMemoryLimit: Int
    /// Where bodies over ``bodyMemoryLimit`` are written. Default: the temporary directory.
    public var bodySpoolDirectory: String
    /// Bytes of buffer per connection: the request line and headers must fit, with room left for the answer's
    /// header (a request that nearly fills 16 KiB got no answer at all, the JSON 414 included), and body chunks
    /// arrive in pieces of at most this size. libmicrohttpd zeroes the used part for every request, so smaller is
    /// cheaper (16 KiB saved ~2 µs of CPU per tiny GET against 64 KiB here). Default 32 KiB.
    public var connectionMemoryLimit: Int
    /// Seconds ``HTTPServer/shutdown()`` waits for in-flight requests before closing their connections. Default 10.
    public var shutdownGracePeriod: Double
    /// Longest request target (path plus query, as sent) answered normally; longer ones get a JSON 414
    /// `uri_too_long`. Keep it well below `connectionMemoryLimit`: a request line that does not fit
    /// libmicrohttpd's buffer is refused by libmicrohttpd itself with its own HTML 414. Default 8 KiB.
    public var maxURIBytes: Int
    /// Most bytes of request header fields (each counted as `name: value` plus CRLF) answered normally; more get
    /// a JSON 431 `headers_too_large`. Like ``maxURIBytes``, it must stay below what libmicrohttpd's buffer holds,
    /// beyond which libmicrohttpd answers an HTML 431 itself. Default 8 KiB.
    public var maxHeaderBytes: Int
    /// Most request header fields answered normally; more get a JSON 431 `headers_too_large`. libmicrohttpd keeps
    /// a record per field in the connection buffer (about 220 fit in 16 KiB, 2.6 KB of them already did not with
    /// the answer), so this stays well below. Default 100.
    public var maxHeaderCount: Int

    public init(
        host: String = "127.0.0.1", port: Int = 8080, threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        connectionTimeout: Int = 30, requestHeadTimeout: Double = 10, requestTimeout: Double = 60,
        minimumBodyBytesPerSecond: Int = 1024, bodyRateGracePeriod: Double = 5, connectionLimit: Int = 4096,
        connectionsPerAddressLimit: Int = 64, connectionMemoryLimit: Int = 32 * 1024,
        bodyMemoryLimit: Int = 1 << 20, bodySpoolDirectory: String = NSTemporaryDirectory(),
        shutdownGracePeriod: Double = 10, maxURIBytes: Int = 8 * 1024, maxHeaderBytes: Int = 8 * 1024,
        maxHeaderCount: Int = 100
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.connectionTimeout = connectionTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.requestTimeout = requestTimeout
        self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
        self.bodyRateGracePeriod = bodyRateGracePeriod
        self.connectionLimit = connectionLimit
        self.connectionsPerAddressLimit = connectionsPerAddressLimit
        self.connectionMemoryLimit = connectionMemoryLimit
        self.bodyMemoryLimit = bodyMemoryLimit
        self.bodySpoolDirectory = bodySpoolDirectory
        self.shutdownGracePeriod = shutdownGracePeriod
        self.maxURIBytes = maxURIBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
    }
}

/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// The host is not an IP literal or `localhost`.
    case invalidHost(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// libmicrohttpd could not start: typically the address is in use or not local.
    case cannotListen(host: String, port: Int)

    public var description: String {
        switch self {
        case .invalidHost(let host): "Invalid host '\(host)': use an IPv4 or IPv6 address or 'localhost'."
        case .invalidPort(let port): "Invalid port \(port): use 0...65535."
        case .cannotListen(let host, let port): "Cannot listen on \(host):\(port) (address in use or not available)."
        }
    }
}
