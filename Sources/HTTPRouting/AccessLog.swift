import Foundation
import HTTPServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the server records about one finished request.
public struct AccessLogEntry: Sendable, Equatable {
    public let method: HTTPMethod
    /// The raw request path (percent-encoded, no query).
    public let path: String
    /// The matched route pattern (`/api/v1/runs/{runId}`), or `""` when no route matched: a metrics label.
    public let route: String
    /// The response status code.
    public let status: Int
    /// Response body bytes (0 for `HEAD`).
    public let bytes: Int
    /// Time from the request's headers being read to its response being ready, in nanoseconds.
    public let nanoseconds: UInt64
    public let requestID: String
    /// For a 500 made from a non-``HTTPError``: the error's description (for operators only, never sent).
    public let error: String?

    public init(
        method: HTTPMethod, path: String, route: String, status: Int, bytes: Int, nanoseconds: UInt64,
        requestID: String, error: String?
    ) {
        self.method = method
        self.path = path
        self.route = route
        self.status = status
        self.bytes = bytes
        self.nanoseconds = nanoseconds
        self.requestID = requestID
        self.error = error
    }

    /// The duration in milliseconds.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// The log line (no newline): `GET /api/v1/runs 200 1234B 0.42ms id=3fa2c91b0000002a`, then ` error="…"` for
    /// a hidden 500 cause. Control characters in the path and error are replaced by `?`.
    public var line: String {
        let tenths = (nanoseconds + 5_000) / 10_000
        let ms = "\(tenths / 100).\(tenths % 100 < 10 ? "0" : "")\(tenths % 100)"
        var line = "\(method.rawValue) \(LogSanitizer.clip(path)) \(status) \(bytes)B \(ms)ms id=\(requestID)"
        if let error { line += " error=\"\(LogSanitizer.clip(error, limit: 300))\"" }
        return line
    }
}

/// A destination for access log entries: one call per request, from any thread. Keep it cheap.
/// Model: swift-log's `LogHandler`, with an in-memory one for tests (``InMemoryAccessLog``).
public protocol AccessLog: Sendable {
    func record(_ entry: AccessLogEntry)
}

/// Writes each entry as one line to standard error, prefixed with a UTC timestamp:
/// `2026-11-30T04:50:00.123Z GET /healthz 200 2B 0.05ms id=…`. One `write(2)` per line, so lines from
/// concurrent requests do not interleave.
public struct StandardErrorAccessLog: AccessLog {
    public init() {}

    public func record(_ entry: AccessLogEntry) {
        var text = Self.timestamp() + " " + entry.line + "\n"
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { if n < 0 && errno == EINTR { continue } else { return } }
                offset += n
            }
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` from `clock_gettime(CLOCK_REALTIME)`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = Int(now.tv_nsec / 1_000_000)
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(msText)Z"
    }
}

/// Drops every entry (benchmarks, quiet tests).
public struct DiscardingAccessLog: AccessLog {
    public init() {}
    public func record(_ entry: AccessLogEntry) {}
}

/// Keeps entries in memory, for tests.
public final class InMemoryAccessLog: AccessLog {
    private let storage = Mutex<[AccessLogEntry]>([])

    public init() {}

    public func record(_ entry: AccessLogEntry) {
        storage.withLock { $0.append(entry) }
    }

    /// The entries recorded so far, in order.
    public var entries: [AccessLogEntry] { storage.withLock { $0 } }
}

/// Several access logs at once (for example standard error plus a metrics collector).
public struct MultiplexAccessLog: AccessLog {
    public let logs: [any AccessLog]

    public init(_ logs: [any AccessLog]) { self.logs = logs }

    public func record(_ entry: AccessLogEntry) {
        for log in logs { log.record(entry) }
    }
}

/// Makes client-controlled text safe for a log line or message: control characters → `?`, long text clipped.
enum LogSanitizer {
    static func clip(_ text: String, limit: Int = 200) -> String {
        var needsWork = text.utf8.count > limit
        if !needsWork { needsWork = text.utf8.contains { $0 < 0x20 || $0 == 0x7F } }
        guard needsWork else { return text }
        var result = String(
            text.unicodeScalars.prefix(limit).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        if text.unicodeScalars.count > limit { result += "…" }
        return result
    }
}
