import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT and SIGTERM into one call of a shutdown action, through `DispatchSource` signal sources.
///
/// The first signal runs `action` once (on a global queue) and restores the default dispositions, so a second
/// Ctrl-C ends the process at once. Typical `serve` use:
/// ```swift
/// let server = try HTTPServer(router: router, configuration: configuration)
/// let signals = ShutdownSignals.install { _ in server.shutdown() }
/// server.waitUntilStopped()   // returns after in-flight requests finished
/// store.close()
/// _ = signals
/// ```
public final class ShutdownSignals: Sendable {
    // Dispatch sources are thread-safe; they are only cancelled after creation.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]
    private let numbers: [Int32]

    private init(sources: [any DispatchSourceSignal], numbers: [Int32]) {
        self.sources = sources
        self.numbers = numbers
    }

    /// Ignores the default action of `signals` and calls `action(signalNumber)` once, for the first of them.
    /// Keep the returned object alive while the handling should stay installed.
    public static func install(
        signals: [Int32] = [SIGINT, SIGTERM], action: @escaping @Sendable (Int32) -> Void
    ) -> ShutdownSignals {
        let once = OnceFlag()
        let queue = DispatchQueue(label: "HTTPServer.ShutdownSignals")
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                guard once.claim() else { return }
                for other in signals { signal(other, SIG_DFL) }
                DispatchQueue.global().async { action(number) }
            }
            source.resume()
            sources.append(source)
        }
        return ShutdownSignals(sources: sources, numbers: signals)
    }

    /// Removes the handling and restores the default dispositions.
    public func cancel() {
        for source in sources { source.cancel() }
        for number in numbers { signal(number, SIG_DFL) }
    }
}

/// True for the first caller of ``claim()`` only.
final class OnceFlag: Sendable {
    private let claimed = Atomic<Bool>(false)
    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }
}
