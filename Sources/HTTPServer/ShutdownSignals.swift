import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT and SIGTERM into one call of a shutdown action.
///
/// The handler is installed with `sigaction` before `install` returns, so a signal that arrives at
/// any moment afterwards is seen (a `DispatchSource` registers asynchronously and, with the signal
/// ignored meanwhile, lost signals sent right after start). The async-signal-safe handler only
/// writes the signal number to a pipe; a thread reading the pipe runs `action` once and restores the
/// default dispositions, so a second Ctrl-C ends the process at once. Typical `serve` use:
/// ```swift
/// let server = try HTTPServer(responder: router, configuration: configuration)
/// let signals = ShutdownSignals.install { _ in server.shutdown() }
/// server.waitUntilStopped()   // returns after in-flight requests finished
/// store.close()
/// signals.cancel()
/// ```
public final class ShutdownSignals: Sendable {
    private let numbers: [Int32]
    private let pipe: (read: Int32, write: Int32)

    private init(numbers: [Int32], pipe: (read: Int32, write: Int32)) {
        self.numbers = numbers
        self.pipe = pipe
    }

    /// Handles `signals` from now on and calls `action(signalNumber)` once, for the first of them.
    /// Keep the returned object alive while the handling should stay installed.
    public static func install(
        signals: [Int32] = [SIGINT, SIGTERM], action: @escaping @Sendable (Int32) -> Void
    ) -> ShutdownSignals {
        var fds: [Int32] = [0, 0]
        precondition(Glibc.pipe(&fds) == 0, "pipe() failed: \(errno)")
        signalPipe.store(fds[1], ordering: .sequentiallyConsistent)
        for number in signals {
            var handling = sigaction()
            handling.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe.load(ordering: .relaxed), &byte, 1)
            }
            sigemptyset(&handling.sa_mask)
            handling.sa_flags = SA_RESTART
            sigaction(number, &handling, nil)
        }
        let readEnd = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1, byte != 0 else { return }  // closed, or cancel()'s wake-up byte
                for other in signals { signal(other, SIG_DFL) }
                action(Int32(byte))
                return
            }
        }
        thread.name = "HTTPServer.ShutdownSignals"
        thread.start()
        return ShutdownSignals(numbers: signals, pipe: (fds[0], fds[1]))
    }

    /// Removes the handling and restores the default dispositions.
    public func cancel() {
        for number in numbers { signal(number, SIG_DFL) }
        var wake: UInt8 = 0
        _ = write(pipe.write, &wake, 1)
    }
}

/// The write end of the pipe the signal handler writes to (a C signal handler cannot capture).
private let signalPipe = Atomic<Int32>(-1)
