import FailscopeModel
import FailscopeStore
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delivery worker (README.md, "Webhooks"): evaluates finished runs and sends the store's outbox of deliveries to
/// the webhooks, apart from ingest.
///
/// The finish route only records the finish (``runFinished(_:)``: one insert) and wakes the worker. The worker's
/// thread, once ``start()`` ran, evaluates each run whose finishes have settled (``WebhookSettings/settleSeconds``)
/// into events, then claims due deliveries and sends each as an HTTP `POST` through URLSession, at most
/// ``WebhookSettings/concurrentDeliveries`` at a time, each within ``WebhookSettings/timeoutSeconds``; a slow or failing
/// receiver holds only its own delivery. A failed attempt is retried with exponential backoff and jitter
/// (``WebhookSettings/retryDelay(afterAttempt:jitter:)``) up to ``WebhookSettings/maximumAttempts``, then marked
/// `failed`. Delivered and failed deliveries stay in the log for ``WebhookSettings/keepDeliveryDays``. Everything is
/// in the store, so deliveries pending at a stop are sent after the next start; a claim holds
/// a row for the attempt's timeout plus a minute, so another service process on the same database never sends it
/// at the same time.
///
/// Each request carries `Content-Type: application/json`, ``eventHeader`` (the event type), ``eventIDHeader`` (the
/// event's id, the same in every retry: receivers drop ids they have seen), ``timestampHeader`` (the event's time in
/// Unix seconds, also in the signed body's `createdAt`) and ``signatureHeader``: `sha256=` and the lowercase hex
/// HMAC-SHA256 of the exact body bytes under the webhook's secret.
public final class WebhookDispatcher: Sendable {
    public static let signatureHeader = "X-Failscope-Signature"
    public static let eventHeader = "X-Failscope-Event"
    public static let eventIDHeader = "X-Failscope-Event-Id"
    public static let timestampHeader = "X-Failscope-Timestamp"

    let store: FailscopeStore
    let settings: WebhookSettings
    let metrics: ServiceMetrics
    /// How events are rendered: the links' base is settled once the server listens (``listening(host:port:)``).
    private let payload: Mutex<WebhookPayload>
    private let log: @Sendable (String) -> Void
    private let session: URLSession
    private let wake = DispatchSemaphore(value: 0)
    private let state = Mutex(State())
    /// Entered by the worker thread and by each delivery in flight.
    private let working = DispatchGroup()

    private enum Phase { case idle, running, stopping, stopped }

    private struct State {
        var phase = Phase.idle
        var inFlight: [Int: URLSessionDataTask] = [:]
        /// The last problem logged, so a database that stays busy is logged once, not every poll.
        var lastProblem: String?
        /// When the delivery log was last pruned.
        var prunedAt = Date.distantPast
    }

    /// A worker over `store`; `log` receives its problems (never a URL's path, a secret or a body).
    init(
        store: FailscopeStore, settings: WebhookSettings, metrics: ServiceMetrics,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.payload = Mutex(WebhookPayload(publicURL: settings.publicURL ?? "http://127.0.0.1:8080/"))
        self.log = log
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.timeoutSeconds
        configuration.timeoutIntervalForResource = settings.timeoutSeconds
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// Records that run `runID` finished (one statement) and wakes the worker; the run is evaluated once its
    /// finishes have settled.
    ///
    /// - Throws: `StoreError` (`.busy`, `.unavailable`, `.storageFull`).
    public func runFinished(_ runID: String, now: Date = Date()) throws {
        try store.scheduleWebhookCheck(runID: runID, dueAt: now.addingTimeInterval(settings.settleSeconds))
        wake.signal()
    }

    /// Links in events start with `http://host:port/` unless the settings name a public URL.
    public func listening(host: String, port: Int) {
        guard settings.publicURL == nil else { return }
        let address = host.contains(":") ? "[\(host)]" : host
        payload.withLock { $0 = WebhookPayload(publicURL: "http://\(address):\(port)/") }
    }

    /// Makes the store's configured webhooks those of the settings, then starts the worker's thread. Once only.
    ///
    /// - Throws: `StoreError.invalid` for configured webhooks without a secret or with a URL that is not
    ///   `http`/`https`, and the store's conditions.
    public func start() throws {
        if !settings.urls.isEmpty {
            guard let secret = settings.secret, !secret.isEmpty else {
                throw StoreError.invalid("a webhook needs a secret (--webhook-secret or FAILSCOPE_WEBHOOK_SECRET)")
            }
            try store.configureWebhooks(urls: settings.urls, secret: secret)
        } else {
            try store.configureWebhooks(urls: [], secret: "")
        }
        let started = state.withLock { state -> Bool in
            guard state.phase == .idle else { return false }
            state.phase = .running
            return true
        }
        guard started else { return }
        working.enter()
        let thread = Thread { [self] in
            defer { working.leave() }
            while state.withLock({ $0.phase == .running }) {
                pass()
                _ = wake.wait(timeout: .now() + settings.pollSeconds)
            }
        }
        thread.name = "failscope.webhooks"
        thread.start()
    }

    /// Stops the worker: no new work, attempts in flight are cancelled (each stays pending, due at once, its attempt
    /// counted) and recorded before this returns. Idempotent.
    public func stop() {
        let tasks = state.withLock { state -> [URLSessionDataTask] in
            guard state.phase == .running || state.phase == .idle else { return [] }
            state.phase = .stopping
            return Array(state.inFlight.values)
        }
        wake.signal()
        for task in tasks { task.cancel() }
        if working.wait(timeout: .now() + settings.timeoutSeconds + 5) == .timedOut {
            log("webhooks: deliveries still in flight at stop; they are sent again after the next start")
        }
        state.withLock { $0.phase = .stopped }
    }

    /// One round of work: evaluates the settled finished runs, then starts the due deliveries that fit in the free
    /// slots. The worker's thread calls it; tests may too.
    func pass(now: Date = Date()) {
        do {
            let leaseUntil = now.addingTimeInterval(settings.timeoutSeconds + 60)
            let checkClaim = UUID().uuidString
            for check in try store.claimWebhookChecks(owner: checkClaim, now: now, leaseUntil: leaseUntil, limit: 32) {
                _ = try store.evaluateWebhookCheck(
                    runID: check.runID, requestID: check.requestID, owner: checkClaim, now: now
                ) { draft in try payload.withLock { try $0.body(draft) } }
            }
            let prune = state.withLock { state -> Bool in
                guard now.timeIntervalSince(state.prunedAt) >= 3_600 else { return false }
                state.prunedAt = now
                return true
            }
            if prune {
                try store.pruneWebhookDeliveries(
                    finishedBefore: now.addingTimeInterval(-Double(settings.keepDeliveryDays) * 86_400))
            }
            let free = state.withLock { $0.phase == .running ? settings.concurrentDeliveries - $0.inFlight.count : 0 }
            guard free > 0 else { return }
            let deliveryClaim = UUID().uuidString
            for job in try store.claimWebhookDeliveries(
                owner: deliveryClaim, now: now, leaseUntil: leaseUntil, limit: free)
            {
                send(job, claim: deliveryClaim)
            }
            state.withLock { $0.lastProblem = nil }
        } catch {
            report("webhooks: \(error)")
        }
    }

    private func send(_ job: FailscopeStore.WebhookDeliveryJob, claim: String) {
        guard let url = URL(string: job.url) else {
            return record(
                job, claim: claim, .failed(statusCode: nil, error: "the webhook's url is not a URL", retryAt: nil))
        }
        let body = Data(job.payload.utf8)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = settings.timeoutSeconds
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Failscope-Webhook/1", forHTTPHeaderField: "User-Agent")
        request.setValue(job.event.rawValue, forHTTPHeaderField: Self.eventHeader)
        request.setValue(job.eventID, forHTTPHeaderField: Self.eventIDHeader)
        request.setValue(String(Int64(job.createdAt.timeIntervalSince1970)), forHTTPHeaderField: Self.timestampHeader)
        request.setValue(
            "sha256=" + HMACSHA256.hex(key: Array(job.secret.utf8), message: body),
            forHTTPHeaderField: Self.signatureHeader)
        working.enter()
        let task = session.dataTask(with: request) { [self] _, response, error in
            defer { working.leave() }
            let statusCode = (response as? HTTPURLResponse)?.statusCode
            let outcome: FailscopeStore.WebhookAttemptOutcome
            if let statusCode, (200..<300).contains(statusCode) {
                outcome = .delivered(statusCode: statusCode)
            } else if (error as? URLError)?.code == .cancelled, state.withLock({ $0.phase != .running }) {
                outcome = .interrupted
            } else {
                let retryAt =
                    job.attempts >= settings.maximumAttempts
                    ? nil : Date().addingTimeInterval(settings.retryDelay(afterAttempt: job.attempts))
                outcome = .failed(
                    statusCode: statusCode, error: statusCode.map { "HTTP \($0)" } ?? Self.describe(error),
                    retryAt: retryAt)
            }
            record(job, claim: claim, outcome)
            state.withLock { _ = $0.inFlight.removeValue(forKey: job.id) }
            wake.signal()  // a slot is free, and the next event of the same test may be due
        }
        state.withLock { $0.inFlight[job.id] = task }
        task.resume()
    }

    private func record(
        _ job: FailscopeStore.WebhookDeliveryJob, claim: String, _ outcome: FailscopeStore.WebhookAttemptOutcome
    ) {
        do {
            try store.recordWebhookAttempt(id: job.id, owner: claim, outcome: outcome)
        } catch {
            report("webhooks: delivery \(job.id) of webhook \(job.webhookID): cannot record its attempt: \(error)")
        }
        switch outcome {
        case .delivered: metrics.recordWebhookDelivery(.delivered)
        case .failed(_, let error, let retryAt):
            metrics.recordWebhookDelivery(retryAt == nil ? .failed : .retried)
            if retryAt == nil {
                log(
                    "webhooks: delivery \(job.id) of webhook \(job.webhookID) failed after \(job.attempts) attempts: \(error)"
                )
            }
        case .interrupted: break
        }
    }

    private func report(_ problem: String) {
        let repeated = state.withLock { state -> Bool in
            defer { state.lastProblem = problem }
            return state.lastProblem == problem
        }
        if !repeated { log(problem) }
    }

    /// Why an attempt got no answer, without the URL (which may carry a token, as Slack's do).
    static func describe(_ error: (any Error)?) -> String {
        guard let error = error as? URLError else { return error == nil ? "no HTTP answer" : "network error" }
        switch error.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .networkConnectionLost: return "connection lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "TLS failed"
        default: return "network error \(error.code.rawValue)"
        }
    }
}
