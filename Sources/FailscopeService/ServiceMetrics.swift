import Foundation
import HTTPRouting
import HTTPServer
import Synchronization

/// The service's Prometheus metrics, rendered in the text exposition format 0.0.4
/// (https://prometheus.io/docs/instrumenting/exposition_formats/).
///
/// - `failscope_http_requests_total{method,route,status}`: counter of answered requests; `route` is the
///   matched pattern (`/api/v1/runs/{runId}`) or `unmatched`, and `method` one of RFC 9110's methods or
///   `other`, so labels stay few whatever clients send.
/// - `failscope_http_request_duration_seconds{route}`: histogram of handling time.
/// - `failscope_results_ingested_total`, `failscope_artifacts_stored_total`,
///   `failscope_artifact_bytes_stored_total`: counters of new data since start.
/// - `failscope_artifact_bytes`, `failscope_database_bytes`, `failscope_storage_full` (0 or 1),
///   `failscope_storage_free_bytes`, `failscope_http_open_connections`: gauges read at scrape time;
///   `failscope_http_slow_connections_closed_total`: the transport's count of clients cut off for slowness.
/// - `failscope_webhook_deliveries_total{outcome}`: webhook deliveries `delivered`, or `failed` after their last
///   attempt, since start; `failscope_webhook_attempts_failed_total`: failed attempts (retried or not). No label names
///   a webhook: URLs may carry credentials.
///
/// It is also an `AccessLog`, so the router feeds it one entry per request.
public final class ServiceMetrics: AccessLog {
    /// Histogram bucket upper bounds, seconds.
    public static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct RequestKey: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    private struct Histogram {
        var counts = [UInt64](repeating: 0, count: ServiceMetrics.buckets.count)
        var count: UInt64 = 0
        var sum: Double = 0

        mutating func record(_ seconds: Double) {
            for (index, bound) in ServiceMetrics.buckets.enumerated() where seconds <= bound { counts[index] += 1 }
            count += 1
            sum += seconds
        }
    }

    private struct State {
        var requests: [RequestKey: UInt64] = [:]
        var latency: [String: Histogram] = [:]
        var resultsIngested: UInt64 = 0
        var artifactsStored: UInt64 = 0
        var artifactBytesStored: UInt64 = 0
        var webhooksDelivered: UInt64 = 0
        var webhooksFailed: UInt64 = 0
        var webhookAttemptsFailed: UInt64 = 0
    }

    /// How a webhook delivery attempt ended, for the counters.
    enum WebhookAttempt {
        case delivered
        /// Failed; another attempt will be made.
        case retried
        /// Failed, and it was the last attempt.
        case failed
    }

    private let state = Mutex(State())

    /// Connection figures of the transport serving this application, once it runs (see ``observeTransport(_:)``).
    public struct TransportFigures: Sendable {
        /// Open client connections.
        public var openConnections: Int
        /// Connections closed for sending their request head or body too slowly, since start.
        public var slowConnectionsClosed: Int

        public init(openConnections: Int, slowConnectionsClosed: Int) {
            self.openConnections = openConnections
            self.slowConnectionsClosed = slowConnectionsClosed
        }
    }
    private let transport = Mutex<(@Sendable () -> TransportFigures)?>(nil)

    public init() {}

    /// Reports `figures` (read at scrape time) as `failscope_http_open_connections` and
    /// `failscope_http_slow_connections_closed_total`.
    public func observeTransport(_ figures: @escaping @Sendable () -> TransportFigures) {
        transport.withLock { $0 = figures }
    }

    /// RFC 9110's methods (section 9) are their own label; any other token a client sends is `other`.
    static func label(_ method: HTTPMethod) -> String {
        switch method.rawValue {
        case "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH": method.rawValue
        default: "other"
        }
    }

    public func record(_ entry: AccessLogEntry) {
        let route = entry.route.isEmpty ? "unmatched" : entry.route
        let seconds = Double(entry.nanoseconds) / 1e9
        state.withLock { state in
            state.requests[
                RequestKey(method: Self.label(entry.method), route: route, status: entry.status), default: 0] +=
                1
            // Updated in place: copying the histogram out and back copied its bucket array on every request.
            state.latency[route, default: Histogram()].record(seconds)
        }
    }

    func recordResultsIngested(_ count: Int) {
        state.withLock { $0.resultsIngested += UInt64(count) }
    }

    func recordArtifactStored(bytes: Int) {
        state.withLock {
            $0.artifactsStored += 1
            $0.artifactBytesStored += UInt64(bytes)
        }
    }

    func recordWebhookDelivery(_ attempt: WebhookAttempt) {
        state.withLock { state in
            switch attempt {
            case .delivered: state.webhooksDelivered += 1
            case .retried: state.webhookAttemptsFailed += 1
            case .failed:
                state.webhookAttemptsFailed += 1
                state.webhooksFailed += 1
            }
        }
    }

    /// The exposition text, with the gauges given: `storageFull` (the disk holding the data folder is full and
    /// writes are answered 507), `freeStorageBytes` (free bytes there, when known) and `dependenciesUp` (whether
    /// each dependency, `database` and `artifact_storage`, answered its health check now).
    public func render(
        artifactBytes: Int, databaseBytes: Int, storageFull: Bool = false, freeStorageBytes: Int? = nil,
        dependenciesUp: [(name: String, up: Bool)] = []
    ) -> String {
        let state = state.withLock { $0 }
        var out = ""
        out += "# HELP failscope_http_requests_total HTTP requests answered, by method, route pattern and status.\n"
        out += "# TYPE failscope_http_requests_total counter\n"
        for (key, value) in state.requests.sorted(by: {
            ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
        }) {
            out +=
                "failscope_http_requests_total{method=\"\(Self.escape(key.method))\",route=\"\(Self.escape(key.route))\",status=\"\(key.status)\"} \(value)\n"
        }
        out += "# HELP failscope_http_request_duration_seconds Time to answer a request, by route pattern.\n"
        out += "# TYPE failscope_http_request_duration_seconds histogram\n"
        for (route, histogram) in state.latency.sorted(by: { $0.key < $1.key }) {
            let label = "route=\"\(Self.escape(route))\""
            for (index, bound) in Self.buckets.enumerated() {
                out +=
                    "failscope_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(histogram.counts[index])\n"
            }
            out += "failscope_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.count)\n"
            out += "failscope_http_request_duration_seconds_sum{\(label)} \(histogram.sum)\n"
            out += "failscope_http_request_duration_seconds_count{\(label)} \(histogram.count)\n"
        }
        out += "# HELP failscope_results_ingested_total Results stored since start (duplicates not counted).\n"
        out += "# TYPE failscope_results_ingested_total counter\n"
        out += "failscope_results_ingested_total \(state.resultsIngested)\n"
        out += "# HELP failscope_artifacts_stored_total Artifacts stored since start (identical uploads not counted).\n"
        out += "# TYPE failscope_artifacts_stored_total counter\n"
        out += "failscope_artifacts_stored_total \(state.artifactsStored)\n"
        out += "# HELP failscope_artifact_bytes_stored_total Bytes of artifacts stored since start.\n"
        out += "# TYPE failscope_artifact_bytes_stored_total counter\n"
        out += "failscope_artifact_bytes_stored_total \(state.artifactBytesStored)\n"
        out += "# HELP failscope_webhook_deliveries_total Webhook deliveries finished since start, by outcome.\n"
        out += "# TYPE failscope_webhook_deliveries_total counter\n"
        out += "failscope_webhook_deliveries_total{outcome=\"delivered\"} \(state.webhooksDelivered)\n"
        out += "failscope_webhook_deliveries_total{outcome=\"failed\"} \(state.webhooksFailed)\n"
        out += "# HELP failscope_webhook_attempts_failed_total Failed webhook delivery attempts since start.\n"
        out += "# TYPE failscope_webhook_attempts_failed_total counter\n"
        out += "failscope_webhook_attempts_failed_total \(state.webhookAttemptsFailed)\n"
        out += "# HELP failscope_artifact_bytes Bytes of all stored artifacts.\n"
        out += "# TYPE failscope_artifact_bytes gauge\n"
        out += "failscope_artifact_bytes \(artifactBytes)\n"
        out +=
            "# HELP failscope_database_bytes Bytes of the database (SQLite: its file and WAL; PostgreSQL: "
            + "pg_database_size).\n"
        out += "# TYPE failscope_database_bytes gauge\n"
        out += "failscope_database_bytes \(databaseBytes)\n"
        out += "# HELP failscope_storage_full 1 when the disk holding the data folder is full (uploads get 507).\n"
        out += "# TYPE failscope_storage_full gauge\n"
        out += "failscope_storage_full \(storageFull ? 1 : 0)\n"
        if !dependenciesUp.isEmpty {
            out += "# HELP failscope_dependency_up 1 when the dependency answered its health check, else 0.\n"
            out += "# TYPE failscope_dependency_up gauge\n"
            for (name, up) in dependenciesUp {
                out += "failscope_dependency_up{dependency=\"\(Self.escape(name))\"} \(up ? 1 : 0)\n"
            }
        }
        if let figures = transport.withLock({ $0 })?() {
            out += "# HELP failscope_http_open_connections Open client connections.\n"
            out += "# TYPE failscope_http_open_connections gauge\n"
            out += "failscope_http_open_connections \(figures.openConnections)\n"
            out += "# HELP failscope_http_slow_connections_closed_total Clients cut off as too slow.\n"
            out += "# TYPE failscope_http_slow_connections_closed_total counter\n"
            out += "failscope_http_slow_connections_closed_total \(figures.slowConnectionsClosed)\n"
        }
        if let freeStorageBytes {
            out += "# HELP failscope_storage_free_bytes Bytes free on the file system holding the data folder.\n"
            out += "# TYPE failscope_storage_free_bytes gauge\n"
            out += "failscope_storage_free_bytes \(freeStorageBytes)\n"
        }
        return out
    }

    /// Label value escaping: backslash, double quote and newline.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
