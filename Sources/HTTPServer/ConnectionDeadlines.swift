import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Cuts off clients too slow to be worth a connection: one that has not sent a whole request head within
/// ``HTTPServerConfiguration/requestHeadTimeout`` of its accept (or of its previous response), and one whose body
/// arrives slower than ``HTTPServerConfiguration/minimumBodyBytesPerSecond`` once
/// ``HTTPServerConfiguration/bodyRateGracePeriod`` has passed.
///
/// libmicrohttpd 0.9.75 has only an idle timeout, which any byte resets, so a client sending its head one byte a
/// second holds its connection forever. Here every connection has a ``Record`` (made when libmicrohttpd accepts
/// it, dropped when it closes it) whose phase the dispatcher updates; a timer looks at them about 5 times a second
/// and shuts down the socket of a late one (`shutdown(2)`, so libmicrohttpd sees the end of the stream and closes
/// it itself). The socket is shut down under the same lock that the close notification takes, and libmicrohttpd
/// closes the socket only after that notification, so a socket number is never shut down after its reuse.
final class ConnectionDeadlines: Sendable {
    /// One connection's progress. Its fields are atomics: the dispatcher writes them without the lock.
    final class Record: Sendable {
        enum Phase: UInt8 {
            /// Waiting for (the rest of) a request head, since ``since``.
            case awaitingHead = 0
            /// Receiving a body, since ``since``; ``bodyBytes`` so far.
            case receivingBody = 1
            /// The request is being answered (handler running, response being sent): no deadline here; the idle
            /// timeout covers a client that stops reading.
            case answering = 2
        }

        let socket: Int32
        let phase = Atomic<UInt8>(Phase.awaitingHead.rawValue)
        let since: Atomic<UInt64>
        let bodyBytes = Atomic<Int>(0)

        init(socket: Int32, now: UInt64) {
            self.socket = socket
            self.since = Atomic(now)
        }

        func enter(_ phase: Phase, at now: UInt64 = MonotonicClock.nanoseconds()) {
            since.store(now, ordering: .relaxed)
            bodyBytes.store(0, ordering: .relaxed)
            self.phase.store(phase.rawValue, ordering: .releasing)
        }
    }

    private let records = Mutex<[UInt: Record]>([:])
    private let headTimeout: UInt64
    private let bodyGrace: UInt64
    private let minimumBodyRate: Int
    /// Dispatch sources are thread-safe; only `cancel` is called after init.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    /// Connections closed for being too slow, since the server started.
    let closedForSlowness = Atomic<Int>(0)

    init(configuration: HTTPServerConfiguration) {
        headTimeout = UInt64(max(0.1, configuration.requestHeadTimeout) * 1e9)
        bodyGrace = UInt64(max(0, configuration.bodyRateGracePeriod) * 1e9)
        minimumBodyRate = max(0, configuration.minimumBodyBytesPerSecond)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "httpserver.connection-deadlines"))
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200), leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.resume()
    }

    /// Stops the timer (the daemon is stopping).
    func stop() { timer.cancel() }

    /// The number of open connections.
    var openConnections: Int { records.withLock { $0.count } }

    /// libmicrohttpd accepted `connection`: a record in its socket context.
    func opened(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let record = Record(socket: fs_mhd_connection_socket(connection), now: MonotonicClock.nanoseconds())
        socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        records.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))] = record }
    }

    /// libmicrohttpd is closing `connection` (its socket is still open).
    func closed(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        records.withLock { _ = $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))) }
        if let opaque = socketContext.pointee {
            socketContext.pointee = nil
            Unmanaged<Record>.fromOpaque(opaque).release()
        }
    }

    /// The record of `connection`, or `nil` (a connection the notification did not see).
    static func record(of connection: OpaquePointer) -> Record? {
        fs_mhd_connection_record(connection).map { Unmanaged<Record>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Shuts down every late connection.
    private func sweep() {
        let now = MonotonicClock.nanoseconds()
        records.withLock { records in
            for record in records.values where isLate(record, now: now) {
                // Only once: the socket stays in the table until libmicrohttpd notices and closes it.
                record.enter(.answering, at: now)
                closedForSlowness.add(1, ordering: .sequentiallyConsistent)
                _ = Glibc.shutdown(record.socket, Int32(SHUT_RDWR))
            }
        }
    }

    private func isLate(_ record: Record, now: UInt64) -> Bool {
        let elapsed = now &- record.since.load(ordering: .relaxed)
        switch Record.Phase(rawValue: record.phase.load(ordering: .acquiring)) {
        case .awaitingHead: return elapsed > headTimeout
        case .receivingBody:
            guard minimumBodyRate > 0, elapsed > bodyGrace, elapsed < UInt64.max / 2 else { return false }
            let required = Double(minimumBodyRate) * Double(elapsed) / 1e9
            return Double(record.bodyBytes.load(ordering: .relaxed)) < required
        case .answering, nil: return false
        }
    }
}
