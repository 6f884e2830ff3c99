import Foundation

/// `POST /api/v1/quarantine`: quarantines a test until the end of `expires` (`YYYY-MM-DD`, UTC, today or later).
///
/// `suite`, `name`, `arguments`, `page` and `device` are matched exactly as results store them (`arguments`,
/// `page`, `device` absent: any). `actor` names who asks (default: `owner`); the audit log records it with
/// the token's role. Text rules: ``QuarantineRequest/textBytes`` and no control characters in `owner`,
/// `reason`, `actor` (``QuarantineRequest/problem(ofText:field:)``); the identity fields follow the ingest
/// rules (``IngestLimits/textFieldBytes``).
public struct QuarantineRequest: Codable, Sendable, Hashable {
    public var project: String
    public var suite: String
    public var name: String
    public var arguments: String?
    public var page: String?
    public var device: String?
    public var owner: String
    public var reason: String
    public var expires: String
    public var actor: String?

    public init(
        project: String, suite: String, name: String, arguments: String? = nil, page: String? = nil,
        device: String? = nil, owner: String, reason: String, expires: String, actor: String? = nil
    ) {
        self.project = project
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.page = page
        self.device = device
        self.owner = owner
        self.reason = reason
        self.expires = expires
        self.actor = actor
    }

    /// UTF-8 bytes of `owner`, `reason`, `actor` and `why`.
    public static let textBytes = 1_000

    /// Why `text` is not acceptable as the human-written `field` (empty, longer than ``textBytes``, a control
    /// character: it would break a log line or a terminal), or `nil` when it is.
    public static func problem(ofText text: String, field: String) -> String? {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return "\(field) must not be empty" }
        if text.utf8.count > textBytes { return "\(field) is longer than \(textBytes) bytes" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "\(field) must not contain control characters (line breaks, tabs, escapes)"
        }
        return nil
    }
}

/// `PUT /api/v1/quarantine/{entryId}`: changes an active entry's owner, reason and expiry (its test cannot change:
/// quarantine a test anew instead); `why` and `actor` (empty when absent) go to the audit log.
public struct QuarantineEdit: Codable, Sendable, Hashable {
    public var owner: String
    public var reason: String
    public var expires: String
    public var why: String
    public var actor: String?

    public init(owner: String, reason: String, expires: String, why: String, actor: String? = nil) {
        self.owner = owner
        self.reason = reason
        self.expires = expires
        self.why = why
        self.actor = actor
    }
}

/// `POST /api/v1/quarantine/{entryId}/lift`: ends an active entry now; `why` and `actor` (empty when absent) go
/// to the audit log.
public struct QuarantineLift: Codable, Sendable, Hashable {
    public var why: String
    public var actor: String?

    public init(why: String, actor: String? = nil) {
        self.why = why
        self.actor = actor
    }
}
