import FailscopeStore
import Foundation
import HTTPRouting
import HTTPServer

/// A running `failscope serve`: the store opened (and migrated) in the data folder, the application
/// built over it, and the HTTP transport listening.
///
/// The webhook worker starts with it (its configured webhooks written to the store first). `stop()` (or SIGINT/SIGTERM
/// after `installSignalHandlers()`) stops accepting, lets in-flight requests finish, stops the webhook worker (its
/// unfinished deliveries stay in the store for the next start), then closes the store (WAL checkpointed). Used by the
/// CLI and by live-port tests.
public final class FailscopeServer: Sendable {
    public let application: FailscopeApplication
    public let http: HTTPServer
    /// The bound port (the ephemeral one when started with port 0).
    public var port: Int { http.port }

    /// Opens the store in `dataDirectory` (its database at `database`, default the folder's SQLite file; its
    /// artifacts in `artifacts`, default the folder's `artifacts/`) and
    /// starts listening on `host:port`; `connectionsPerAddress` replaces the transport's per-address
    /// connection cap when given (0: none; see `HTTPServerConfiguration.connectionsPerAddressLimit`).
    ///
    /// - Throws: `MigrationError` (the database is refused), `StoreError.unavailable` (the database cannot
    ///   be opened), `StoreError.storageFull` (the disk is too full to open it), `StoreError.invalid` (a configured
    ///   webhook without a secret or with a bad URL), `HTTPServerError` (port in use).
    public init(
        dataDirectory: URL, database: DatabaseLocation? = nil, artifacts: (any ArtifactStorage)? = nil,
        host: String = "127.0.0.1", port: Int = 8080,
        threadCount: Int = 4, connectionsPerAddress: Int? = nil, configuration: ServiceConfiguration
    ) throws {
        let store = try FailscopeStore(
            directory: dataDirectory, database: database, artifacts: artifacts, readerCount: max(2, threadCount))
        let application = FailscopeApplication.build(configuration, store: store)
        do {
            try application.webhooks.start()
        } catch {
            store.close()
            throw error
        }
        var transport = HTTPServerConfiguration(host: host, port: port, threadCount: threadCount)
        if let connectionsPerAddress { transport.connectionsPerAddressLimit = connectionsPerAddress }
        // Large request bodies wait in the data folder, on the disk the store uses (a tmpfs /tmp would hold
        // them in memory); their files are unlinked at once, so nothing is left behind.
        let incoming = dataDirectory.appendingPathComponent("incoming")
        if (try? FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)) != nil {
            transport.bodySpoolDirectory = incoming.path
        }
        do {
            http = try HTTPServer(responder: application.router, configuration: transport)
        } catch {
            application.webhooks.stop()
            store.close()
            throw error
        }
        self.application = application
        application.webhooks.listening(host: host, port: http.port)
        application.metrics.observeTransport { [weak http] in
            ServiceMetrics.TransportFigures(
                openConnections: http?.openConnections ?? 0, slowConnectionsClosed: http?.slowConnectionsClosed ?? 0)
        }
    }

    /// Stops accepting, finishes in-flight requests, then closes the store. Idempotent.
    public func stop() {
        http.shutdown()
        http.waitUntilStopped()
        application.webhooks.stop()
        application.store.close()
    }

    /// Blocks until the server has stopped (by `stop()` or a signal) and the store is closed.
    public func waitUntilStopped() {
        http.waitUntilStopped()
        application.webhooks.stop()
        application.store.close()
    }

    /// Runs retention in the background: now, then every `interval` seconds, deletes runs older than
    /// `keepDays` days and unreferenced artifacts (without `VACUUM`, which would hold the writer; freed
    /// pages are reused). Outcomes go to `report`. Keep the returned timer alive; cancel it to stop.
    public func startRetentionSweep(
        keepDays: Int, interval: Double = 86_400, report: @escaping @Sendable (String) -> Void
    ) -> any DispatchSourceTimer {
        let store = application.store
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "failscope.retention"))
        timer.schedule(deadline: .now(), repeating: interval)
        timer.setEventHandler {
            do {
                let outcome = try store.collectGarbage(keepDays: keepDays, vacuum: false)
                report(
                    "retention: deleted \(outcome.runsDeleted) runs, \(outcome.artifactsDeleted) artifacts "
                        + "(\(outcome.artifactBytesFreed) bytes) older than \(keepDays) days")
            } catch {
                report("retention: \(error)")
            }
        }
        timer.resume()
        return timer
    }

    /// Makes SIGINT and SIGTERM stop the server gracefully; keep the returned object alive.
    public func installSignalHandlers(_ announce: @escaping @Sendable (Int32) -> Void = { _ in }) -> ShutdownSignals {
        ShutdownSignals.install { [self] number in
            announce(number)
            http.shutdown()
        }
    }
}
