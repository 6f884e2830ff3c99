import Foundation

/// How the service announces events to webhooks (README.md, "Webhooks"): the configured receivers, the dashboard's
/// public address for links, and the delivery worker's timing.
public struct WebhookSettings: Sendable {
    /// Receivers from `failscope serve --webhook` (each an `http`/`https` URL), signed with ``secret``.
    public var urls: [String]
    /// The HMAC-SHA256 key of the configured receivers (`--webhook-secret` / `FAILSCOPE_WEBHOOK_SECRET`); needed when
    /// ``urls`` is not empty. Never logged or shown.
    public var secret: String?
    /// The dashboard's address as receivers reach it (`--public-url`), the base of every link in an event, ending
    /// with `/`; `nil`: the address ``FailscopeServer`` listens on.
    public var publicURL: String?
    /// Seconds a finished run waits for further finishes (every process of `swift test --parallel` reports its own)
    /// before it is evaluated and announced. Default 5.
    public var settleSeconds: Double
    /// Seconds one attempt may take, connecting included, before it counts as failed. Default 10; at least 1 (with
    /// 0.5, Foundation's URLSession on Linux ended every attempt at once as timed out).
    public var timeoutSeconds: Double
    /// Attempts before a delivery is given up (`failed`). Default 8.
    public var maximumAttempts: Int
    /// Backoff after failed attempt n: `min(maximumDelay, initialDelay × 2^(n−1))` seconds, of which a random half is
    /// taken off ("equal jitter"), so receivers that came back are not hit by every sender at once. Defaults 10 s and
    /// 1 h: the seven waits between eight attempts add up to at most 1,270 s (about 21 minutes).
    public var initialDelaySeconds: Double
    public var maximumDelaySeconds: Double
    /// Seconds the worker sleeps when it has nothing to do (a finish wakes it at once). Default 1.
    public var pollSeconds: Double
    /// Deliveries sent at the same time at most. Default 16.
    public var concurrentDeliveries: Int
    /// Days the delivery log keeps a delivered or failed delivery (checked hourly). Default 30.
    public var keepDeliveryDays: Int

    public init(
        urls: [String] = [], secret: String? = nil, publicURL: String? = nil,
        settleSeconds: Double = 5, timeoutSeconds: Double = 10, maximumAttempts: Int = 8,
        initialDelaySeconds: Double = 10, maximumDelaySeconds: Double = 3_600, pollSeconds: Double = 1,
        concurrentDeliveries: Int = 16, keepDeliveryDays: Int = 30
    ) {
        self.urls = urls
        self.secret = secret
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.settleSeconds = settleSeconds
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.maximumAttempts = maximumAttempts
        self.initialDelaySeconds = initialDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
        self.pollSeconds = pollSeconds
        self.concurrentDeliveries = concurrentDeliveries
        self.keepDeliveryDays = keepDeliveryDays
    }

    /// The wait after failed attempt `attempt` (1-based), seconds, with `jitter` in 0...1 (0 waits the full step, 1
    /// half of it).
    public func retryDelay(afterAttempt attempt: Int, jitter: Double = Double.random(in: 0...1)) -> Double {
        let step = min(maximumDelaySeconds, initialDelaySeconds * pow(2, Double(max(0, min(attempt - 1, 30)))))
        return step * (1 - 0.5 * min(max(jitter, 0), 1))
    }
}
