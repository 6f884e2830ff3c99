import Foundation

/// What a webhook is told (README.md, "Webhooks"): a run finished, or one of its tests changed state.
public enum WebhookEventType: String, Codable, Sendable, CaseIterable, Hashable {
    /// A run was marked finished (announced once its finishes have settled; again when a later finish changes it).
    case runFinished = "run.finished"
    /// A test became flaky on a branch (docs/flaky.md).
    case testFlaky = "test.flaky"
    /// A test became broken on a branch: every recent result on its newest commit fails.
    case testBroken = "test.broken"
    /// A test that was flaky or broken on a branch is neither any more.
    case testFixed = "test.fixed"

    /// Decodes one of the names above; any other is an error that lists them (``WireValueError``).
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let type = Self(rawValue: name) else {
            throw WireValueError.decodingError(
                expected: "one of " + Self.allCases.map(\.rawValue).joined(separator: ", "), at: decoder)
        }
        self = type
    }
}

/// A test's state on a branch as webhooks announce it, from the flaky rules of docs/flaky.md.
public enum WebhookTestState: String, Codable, Sendable, CaseIterable, Hashable {
    /// Neither flaky nor broken.
    case stable
    case flaky
    case broken
}

/// Where a webhook came from: `failscope serve --webhook` (replaced at every start, not deletable through the API)
/// or the API.
public enum WebhookSource: String, Codable, Sendable, Hashable {
    case configuration
    case api
}

/// Which events a webhook is sent (README.md, "Webhooks"): every event of every branch unless it names `events`
/// or `branches`.
///
/// A branch pattern is a branch name in which `*` stands for any run of characters (`release/*`), compared byte for
/// byte (UTF-8); a result without a branch (`""`) matches no pattern. A test event's branch is the branch its state changed on, a run's its branch.
public struct WebhookFilter: Sendable, Hashable {
    /// The event types sent, `nil` for every type.
    public var events: [WebhookEventType]?
    /// The branch patterns whose events are sent, `nil` for every branch.
    public var branches: [String]?

    /// The longest list of branch patterns accepted: 20.
    public static let maximumBranches = 20
    /// The longest branch pattern accepted, bytes: 255 (a git branch name is rarely longer). With
    /// ``maximumBranches`` it bounds the matching of a run's branch (a linear search per `*`-separated part).
    public static let maximumPatternBytes = 255

    public init(events: [WebhookEventType]? = nil, branches: [String]? = nil) {
        self.events = events
        self.branches = branches
    }

    /// Whether an event of type `event` on `branch` is sent.
    public func accepts(_ event: WebhookEventType, branch: String) -> Bool {
        accepts(event) && accepts(branch: branch)
    }

    /// Whether events of type `event` are sent, whatever their branch.
    public func accepts(_ event: WebhookEventType) -> Bool { events?.contains(event) ?? true }

    /// Whether events on `branch` are sent, whatever their type.
    public func accepts(branch: String) -> Bool { branches?.contains { Self.branch(branch, matches: $0) } ?? true }

    /// A problem with the filter as a sentence, `nil` when it is valid: lists must not be empty, patterns 1 to
    /// ``maximumPatternBytes`` bytes without control characters, at most ``maximumBranches`` of them.
    public var problem: String? {
        if let events, events.isEmpty { return "events must name at least one event type when given" }
        guard let branches else { return nil }
        if branches.isEmpty { return "branches must name at least one branch pattern when given" }
        if branches.count > Self.maximumBranches { return "branches may name at most \(Self.maximumBranches) patterns" }
        if branches.contains(where: { $0.isEmpty || $0.utf8.count > Self.maximumPatternBytes }) {
            return "a branch pattern must be 1 to \(Self.maximumPatternBytes) bytes"
        }
        if branches.contains(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            return "a branch pattern must not contain control characters"
        }
        return nil
    }

    /// Glob matching with `*` only, on UTF-8 bytes: the part before the first `*` is a prefix, the part after
    /// the last a suffix, and the parts between are found in order, each at its leftmost place (exact for
    /// `*`-only patterns); no backtracking, so a match costs at most the branch's length times the pattern's.
    private static func branch(_ branch: String, matches pattern: String) -> Bool {
        guard !branch.isEmpty else { return false }
        let text = Array(branch.utf8)
        let parts = pattern.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        guard parts.count > 1 else { return text == parts[0] }
        let (head, tail) = (parts[0], parts[parts.count - 1])
        guard text.count >= head.count + tail.count, text.starts(with: head),
            text.suffix(tail.count).elementsEqual(tail)
        else { return false }
        var start = head.count
        let end = text.count - tail.count
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = firstIndex(of: part, in: text, from: start, before: end) else { return false }
            start = found + part.count
        }
        return true
    }

    /// Where `part` first occurs in `text[from..<before]`, if it does.
    private static func firstIndex(of part: [UInt8], in text: [UInt8], from: Int, before: Int) -> Int? {
        guard before - from >= part.count else { return nil }
        for index in from...(before - part.count) where text[index..<index + part.count].elementsEqual(part) {
            return index
        }
        return nil
    }
}

/// A configured webhook in `GET /api/v1/webhooks`. Its secret is never part of any answer.
public struct Webhook: Codable, Sendable, Hashable {
    public var id: String
    public var url: String
    public var source: WebhookSource
    /// The event types it is sent; absent: every type (``WebhookFilter``).
    public var events: [WebhookEventType]?
    /// The branch patterns whose events it is sent; absent: every branch (``WebhookFilter``).
    public var branches: [String]?
    public var createdAt: Date
    /// Its deliveries by status.
    public var pending: Int
    public var delivered: Int
    public var failed: Int

    public init(
        id: String, url: String, source: WebhookSource, filter: WebhookFilter = WebhookFilter(), createdAt: Date,
        pending: Int = 0, delivered: Int = 0, failed: Int = 0
    ) {
        self.id = id
        self.url = url
        self.source = source
        self.events = filter.events
        self.branches = filter.branches
        self.createdAt = createdAt
        self.pending = pending
        self.delivered = delivered
        self.failed = failed
    }
}

/// `GET /api/v1/webhooks`: every webhook, oldest first.
public struct WebhookList: Codable, Sendable, Hashable {
    public var webhooks: [Webhook]

    public init(webhooks: [Webhook]) {
        self.webhooks = webhooks
    }
}

/// The body of `POST /api/v1/webhooks`: an `http`/`https` URL, the secret its deliveries are signed with
/// (``WebhookCreate/minimumSecretLength`` to ``IngestLimits/textFieldBytes`` bytes) and, optionally, the events
/// and branches it is sent (``WebhookFilter``; absent: every one).
public struct WebhookCreate: Codable, Sendable, Hashable {
    public var url: String
    public var secret: String
    public var events: [WebhookEventType]?
    public var branches: [String]?

    /// The shortest secret accepted, bytes: 16.
    public static let minimumSecretLength = 16

    public init(url: String, secret: String, filter: WebhookFilter = WebhookFilter()) {
        self.url = url
        self.secret = secret
        self.events = filter.events
        self.branches = filter.branches
    }

    /// Its `events` and `branches`.
    public var filter: WebhookFilter { WebhookFilter(events: events, branches: branches) }
}

/// The state of one delivery.
public enum WebhookDeliveryStatus: String, Codable, Sendable, Hashable {
    /// Waiting for its first attempt or a retry.
    case pending
    /// The receiver answered 2xx.
    case delivered
    /// Every attempt failed; no more will be made.
    case failed
}

/// One event for one webhook in `GET /api/v1/webhooks/{webhookId}/deliveries`.
public struct WebhookDelivery: Codable, Sendable, Hashable {
    public var id: Int
    /// The event's id (`X-Failscope-Event-Id`), the same for every webhook told of the event.
    public var eventId: String
    public var event: WebhookEventType
    public var status: WebhookDeliveryStatus
    /// Attempts made so far (an attempt interrupted by a stopped service counts).
    public var attempts: Int
    /// When the next attempt is due (pending deliveries only).
    public var nextAttemptAt: Date?
    /// The HTTP status of the last answer, absent when there was none (a timeout, a refused connection).
    public var lastStatusCode: Int?
    /// Why the last attempt failed, absent after a success.
    public var lastError: String?
    public var createdAt: Date
    public var lastAttemptAt: Date?
    /// When it was delivered or given up.
    public var finishedAt: Date?

    public init(
        id: Int, eventId: String, event: WebhookEventType, status: WebhookDeliveryStatus, attempts: Int,
        nextAttemptAt: Date?, lastStatusCode: Int?, lastError: String?, createdAt: Date, lastAttemptAt: Date?,
        finishedAt: Date?
    ) {
        self.id = id
        self.eventId = eventId
        self.event = event
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatusCode = lastStatusCode
        self.lastError = lastError
        self.createdAt = createdAt
        self.lastAttemptAt = lastAttemptAt
        self.finishedAt = finishedAt
    }
}

/// `GET /api/v1/webhooks/{webhookId}/deliveries`: the newest deliveries first.
public struct WebhookDeliveryList: Codable, Sendable, Hashable {
    public var webhookId: String
    public var deliveries: [WebhookDelivery]

    public init(webhookId: String, deliveries: [WebhookDelivery]) {
        self.webhookId = webhookId
        self.deliveries = deliveries
    }
}

/// The JSON body a webhook receives (README.md, "Webhooks"), signed with the webhook's secret.
///
/// `text` is a one-line summary in Slack's `mrkdwn` (links as `<url|label>`, test-controlled text with `&`, `<`
/// and `>` escaped), so a Slack incoming webhook URL can be a receiver as it is.
public struct WebhookEvent: Codable, Sendable, Hashable {
    /// The event's id, unique: receivers drop an id they have seen (retries repeat it).
    public var id: String
    public var type: WebhookEventType
    /// When the event was made (`X-Failscope-Timestamp` gives it in Unix seconds).
    public var createdAt: Date
    public var text: String
    /// The finished run (for a test event: the run whose evaluation saw the change).
    public var run: WebhookRun
    /// The test whose state changed; absent for `run.finished`.
    public var test: WebhookTest?

    public init(id: String, type: WebhookEventType, createdAt: Date, text: String, run: WebhookRun, test: WebhookTest?)
    {
        self.id = id
        self.type = type
        self.createdAt = createdAt
        self.text = text
        self.run = run
        self.test = test
    }
}

/// The run of a ``WebhookEvent``.
public struct WebhookRun: Codable, Sendable, Hashable {
    public var id: String
    public var project: String
    public var branch: String?
    public var commit: String?
    public var status: RunStatus
    public var counts: ResultCounts
    public var ciBuildURL: String?
    /// The run in the dashboard.
    public var url: String

    public init(
        id: String, project: String, branch: String?, commit: String?, status: RunStatus, counts: ResultCounts,
        ciBuildURL: String?, url: String
    ) {
        self.id = id
        self.project = project
        self.branch = branch
        self.commit = commit
        self.status = status
        self.counts = counts
        self.ciBuildURL = ciBuildURL
        self.url = url
    }
}

/// The test of a ``WebhookEvent`` and its change of state on `branch`.
public struct WebhookTest: Codable, Sendable, Hashable {
    public var id: String
    public var project: String
    public var suite: String
    public var name: String
    public var arguments: String?
    /// The branch the flaky rules were applied on (`""` for results without a branch).
    public var branch: String
    public var state: WebhookTestState
    /// The state announced before (`stable` when none was).
    public var previousState: WebhookTestState
    /// Why it is flaky (`test.flaky` only).
    public var reasons: [FlakyReason]?
    /// The test's history in the dashboard.
    public var url: String

    public init(
        id: String, project: String, suite: String, name: String, arguments: String?, branch: String,
        state: WebhookTestState, previousState: WebhookTestState, reasons: [FlakyReason]?, url: String
    ) {
        self.id = id
        self.project = project
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.branch = branch
        self.state = state
        self.previousState = previousState
        self.reasons = reasons
        self.url = url
    }
}
