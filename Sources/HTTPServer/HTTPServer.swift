import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server over libmicrohttpd that answers with any ``Responder`` (`HTTPRouting`'s `Router` in
/// Failscope): the transport owns connections, limits, deadlines and shutdown, and knows nothing of routes.
///
/// Threading: libmicrohttpd runs `threadCount` worker threads, each with its own poll(2) loop (not epoll: in
/// libmicrohttpd 0.9.75 `MHD_quiesce_daemon` on an epoll daemon with its own threads races with the workers
/// over removing the listening socket from their epoll sets, and the loser aborts the process with "Failed
/// to remove listen FD from epoll set"; with poll the workers are told through their inter-thread channel).
/// A request's head is checked (a NUL or control byte in the target or a header field → 400; see
/// ``Dispatcher``) and given to ``Responder/decide(head:)`` (routing and authorization) before any body byte is
/// read; its body is collected in chunks (refused with 413 as soon as it exceeds the accepted size; past
/// ``HTTPServerConfiguration/bodyMemoryLimit`` in a temporary file), then a synchronous ``RequestHandler`` runs
/// directly on the worker thread; an asynchronous one runs in a task while the connection is suspended
/// (`MHD_suspend_connection`), and the worker goes on serving other connections. Responses are queued on the access
/// handler's *second* call for a request, even a GET: libmicrohttpd 0.9.75 adds `Connection: close` to a response
/// queued on the first call, which cost keep-alive (about 67,000 against 13,500 requests/s on loopback).
///
/// Life cycle: `init` binds and starts serving; ``shutdown()`` stops accepting (`MHD_quiesce_daemon`; new
/// connections are refused at once), lets
/// in-flight requests finish (up to the grace period; their responses say `Connection: close`), then stops the
/// daemon. The server keeps itself alive until shut down. ``waitUntilStopped()`` blocks until then, for a `serve`
/// command's main thread; ``ShutdownSignals`` turns SIGINT/SIGTERM into a shutdown.
///
/// Error shape: every answer the handler gives is `{"error":{"code","message"}}`, including a request target
/// over ``HTTPServerConfiguration/maxURIBytes`` (414 `uri_too_long`) and header fields over
/// ``HTTPServerConfiguration/maxHeaderBytes`` or ``HTTPServerConfiguration/maxHeaderCount`` (431
/// `headers_too_large`): those limits sit below libmicrohttpd's own so our handler answers first. What
/// libmicrohttpd 0.9.75 refuses *before* calling the handler keeps its built-in HTML body, because 0.9.75 has no
/// option or callback to replace it (its `transmit_error_response` queues a fixed string): a request line or
/// header block that does not fit the connection buffer (414/431, or the connection is closed when not even the
/// error fits), a malformed or oversized `Content-Length` (400/413), malformed chunked encoding or a chunk size
/// too large (400/413), a syntactically broken request or header line (400), and an unsupported HTTP version
/// (505). The access log never sees those requests.
public final class HTTPServer: Sendable {
    /// The settings it was started with.
    public let configuration: HTTPServerConfiguration
    /// The bound TCP port (the ephemeral one when the configuration asked for 0).
    public let port: Int

    private nonisolated(unsafe) let daemon: OpaquePointer
    /// What libmicrohttpd calls back (its `cls`), retained until the daemon stops.
    private let dispatcher: Unmanaged<Dispatcher>
    /// Per-connection deadlines (slow clients), and the C record that routes connection notifications to them;
    /// both live until the daemon stops.
    private let deadlines: ConnectionDeadlines
    private nonisolated(unsafe) let notifier: UnsafeMutablePointer<fs_mhd_connection_notifier>
    private let phase = Mutex<Phase>(.running)
    private let stopped = DispatchGroup()

    private enum Phase { case running, stopping, stopped }

    /// Binds to the configured host and port and starts answering with `responder`.
    ///
    /// - Throws: ``HTTPServerError`` for a bad host or port, or when libmicrohttpd cannot listen (port in use).
    public init(responder: some Responder, configuration: HTTPServerConfiguration = HTTPServerConfiguration()) throws {
        guard (0...65535).contains(configuration.port) else { throw HTTPServerError.invalidPort(configuration.port) }
        self.configuration = configuration
        var flags = UInt32(MHD_USE_POLL_INTERNAL_THREAD.rawValue) | UInt32(MHD_ALLOW_SUSPEND_RESUME.rawValue)
        flags |= UInt32(MHD_USE_TURBO.rawValue)
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        var address4 = sockaddr_in()
        var address6 = sockaddr_in6()
        Self.raiseOpenFileLimit(toHold: configuration.connectionLimit)
        let retained = Unmanaged.passRetained(Dispatcher(responder: responder, configuration: configuration))
        let deadlines = ConnectionDeadlines(configuration: configuration)
        let notifier = UnsafeMutablePointer<fs_mhd_connection_notifier>.allocate(capacity: 1)
        notifier.initialize(
            to: fs_mhd_connection_notifier(
                callback: connectionNotification, cls: Unmanaged.passUnretained(deadlines).toOpaque()))
        var started: OpaquePointer?
        if inet_pton(AF_INET, host, &address4.sin_addr) == 1 {
            address4.sin_family = sa_family_t(AF_INET)
            address4.sin_port = in_port_t(UInt16(configuration.port).bigEndian)
            started = withUnsafePointer(to: &address4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Self.startDaemon(
                        flags: flags, address: $0, cls: retained.toOpaque(), notifier: notifier, configuration)
                }
            }
        } else if inet_pton(AF_INET6, host, &address6.sin6_addr) == 1 {
            address6.sin6_family = sa_family_t(AF_INET6)
            address6.sin6_port = in_port_t(UInt16(configuration.port).bigEndian)
            started = withUnsafePointer(to: &address6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Self.startDaemon(
                        flags: flags | UInt32(MHD_USE_IPv6.rawValue), address: $0, cls: retained.toOpaque(),
                        notifier: notifier, configuration)
                }
            }
        } else {
            retained.release()
            deadlines.stop()
            notifier.deallocate()
            throw HTTPServerError.invalidHost(configuration.host)
        }
        guard let started else {
            retained.release()
            deadlines.stop()
            notifier.deallocate()
            throw HTTPServerError.cannotListen(host: configuration.host, port: configuration.port)
        }
        daemon = started
        dispatcher = retained
        self.deadlines = deadlines
        self.notifier = notifier
        port = Int(fs_mhd_bound_port(started))
        stopped.enter()
    }

    /// A server dropped without ``shutdown()`` stops at once (no grace period).
    deinit {
        if phase.withLock({ $0 == .running }) { shutdown(gracePeriod: 0) }
    }

    private static func startDaemon(
        flags: UInt32, address: UnsafePointer<sockaddr>, cls: UnsafeMutableRawPointer,
        notifier: UnsafeMutablePointer<fs_mhd_connection_notifier>, _ configuration: HTTPServerConfiguration
    ) -> OpaquePointer? {
        fs_mhd_start(
            flags, address, accessHandler, requestCompleted, cls, notifier, UInt32(max(1, configuration.threadCount)),
            UInt32(max(0, configuration.connectionTimeout)), UInt32(max(1, configuration.connectionLimit)),
            UInt32(max(0, configuration.connectionsPerAddressLimit)),
            max(8 * 1024, configuration.connectionMemoryLimit), 512)
    }

    /// Raises the soft limit of open files so that `connections` sockets fit beside the process's other files
    /// (a margin of 256), up to the hard limit. libmicrohttpd closes connections it cannot accept (`EMFILE`).
    private static func raiseOpenFileLimit(toHold connections: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(max(0, connections) + 256)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Stops accepting connections, waits for in-flight requests (up to `gracePeriod` seconds, default the
    /// configuration's), then stops. Idempotent and safe from any thread; a second caller waits for the first.
    public func shutdown(gracePeriod: Double? = nil) {
        let first = phase.withLock { phase -> Bool in
            guard phase == .running else { return false }
            phase = .stopping
            return true
        }
        guard first else {
            waitUntilStopped()
            return
        }
        let dispatcher = self.dispatcher.takeUnretainedValue()
        dispatcher.draining.store(true, ordering: .sequentiallyConsistent)
        // libmicrohttpd stops polling the listening socket and hands it back. Its threads may still look at
        // it until MHD_stop_daemon returns (MHD's documentation), so it is closed only then; shutting it
        // down now (Linux: the socket stops listening) makes new connections fail at once instead of
        // waiting in the kernel's backlog.
        let listenSocket = MHD_quiesce_daemon(daemon)
        if listenSocket >= 0 { _ = Glibc.shutdown(listenSocket, Int32(SHUT_RD)) }
        let grace = gracePeriod ?? configuration.shutdownGracePeriod
        let deadline = DispatchTime.now() + .nanoseconds(Int(max(0, grace) * 1e9))
        while dispatcher.inFlight.load(ordering: .sequentiallyConsistent) > 0, DispatchTime.now() < deadline {
            _ = dispatcher.drained.wait(timeout: min(deadline, .now() + .milliseconds(50)))
        }
        deadlines.stop()
        MHD_stop_daemon(daemon)
        if listenSocket >= 0 { close(listenSocket) }
        notifier.deallocate()
        self.dispatcher.release()
        phase.withLock { $0 = .stopped }
        stopped.leave()
    }

    /// Blocks until ``shutdown()`` has finished.
    public func waitUntilStopped() {
        stopped.wait()
    }

    /// Whether the server has fully stopped.
    public var isStopped: Bool { phase.withLock { $0 == .stopped } }

    /// The number of requests whose headers arrived and whose response is not yet sent.
    public var inFlightRequests: Int { dispatcher.takeUnretainedValue().inFlight.load(ordering: .relaxed) }

    /// The number of open client connections.
    public var openConnections: Int { deadlines.openConnections }

    /// The number of connections closed for being too slow (``HTTPServerConfiguration/requestHeadTimeout``,
    /// ``HTTPServerConfiguration/minimumBodyBytesPerSecond``) since the server started.
    public var slowConnectionsClosed: Int { deadlines.closedForSlowness.load(ordering: .relaxed) }
}

// MARK: - libmicrohttpd callbacks

private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
    guard let cls, let connection, let url, let method, let version, let uploadDataSize, let conCls else {
        return MHD_Result.NO
    }
    return Unmanaged<Dispatcher>.fromOpaque(cls).takeUnretainedValue().handle(
        connection: connection, url: url, method: method, version: version, uploadData: uploadData,
        uploadDataSize: uploadDataSize, state: conCls)
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
    // The connection now waits for its next request head (its deadline starts again).
    if let connection { ConnectionDeadlines.record(of: connection)?.enter(.awaitingHead) }
    guard let cls, let conCls, let state = conCls.pointee else { return }
    conCls.pointee = nil
    // A request refused before the handler saw it leaves only the URI callback's tag.
    guard fs_mhd_is_uri_tag(state) == 0 else { return }
    Unmanaged<Exchange>.fromOpaque(state).release()
    Unmanaged<Dispatcher>.fromOpaque(cls).takeUnretainedValue().requestCompleted()
}

private let connectionNotification: fs_mhd_connection_callback = { cls, connection, socketContext, closed in
    guard let cls, let connection, let socketContext else { return }
    let deadlines = Unmanaged<ConnectionDeadlines>.fromOpaque(cls).takeUnretainedValue()
    if closed != 0 {
        deadlines.closed(connection, socketContext: socketContext)
    } else {
        deadlines.opened(connection, socketContext: socketContext)
    }
}
