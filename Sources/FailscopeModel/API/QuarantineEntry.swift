import Foundation

/// A quarantined test (`GET /api/v1/quarantine`, README.md "Quarantine"): while the entry applies, the test's
/// failures are kept and shown apart ("failed, quarantined") and `failscope test --quarantine obey` does not fail
/// the CI step for them.
///
/// The entry matches the results of the test `project`, `suite`, `name` (and `arguments`, `page`, `device` when
/// given; absent matches any) that ran in `createdAt ..< endsAt`, where `endsAt` is the earlier of the start of the
/// day after `expires` (UTC) and `liftedAt`. So an expired entry stops applying by itself and a result's quarantine
/// never changes after it ran. `changes` is the entry's audit log, oldest first.
public struct QuarantineEntry: Codable, Sendable, Hashable {
    /// Whether an entry applies now.
    public enum State: String, Codable, Sendable, CaseIterable, Hashable {
        case active
        case expired
        case lifted
    }

    /// One recorded change: who (`role` of the token, `actor` named in the request), when, what and why.
    public struct Change: Codable, Sendable, Hashable {
        public enum Action: String, Codable, Sendable, CaseIterable, Hashable {
            case added
            case edited
            case lifted
        }

        /// The kind of token that made the change: an upload token or the admin token.
        public enum Role: String, Codable, Sendable, CaseIterable, Hashable {
            case upload
            case admin
        }

        public var action: Action
        public var role: Role
        public var actor: String
        public var why: String
        public var at: Date

        public init(action: Action, role: Role, actor: String, why: String, at: Date) {
            self.action = action
            self.role = role
            self.actor = actor
            self.why = why
            self.at = at
        }
    }

    /// The service's id of the entry (`/api/v1/quarantine/{entryId}`).
    public var id: Int
    public var project: String
    public var suite: String
    public var name: String
    public var arguments: String?
    public var page: String?
    public var device: String?
    public var owner: String
    public var reason: String
    /// The last day the entry applies, `YYYY-MM-DD` (UTC).
    public var expires: String
    public var createdAt: Date
    public var liftedAt: Date?
    /// When it stops applying (exclusive): the start of the day after `expires`, or `liftedAt` when earlier.
    public var endsAt: Date
    public var state: State
    public var changes: [Change]

    public init(
        id: Int, project: String, suite: String, name: String, arguments: String?, page: String?, device: String?,
        owner: String, reason: String, expires: String, createdAt: Date, liftedAt: Date?, endsAt: Date,
        state: State, changes: [Change]
    ) {
        self.id = id
        self.project = project
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.page = page
        self.device = device
        self.owner = owner
        self.reason = reason
        self.expires = expires
        self.createdAt = createdAt
        self.liftedAt = liftedAt
        self.endsAt = endsAt
        self.state = state
        self.changes = changes
    }

    /// The start (00:00 UTC) of the day `text` names, when it is a valid `YYYY-MM-DD` date; `nil` otherwise
    /// (`2026-02-30` included).
    public static func day(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) }),
            let date = WireCoding.parseDate(text + "T00:00:00Z"), WireCoding.formatDate(date).hasPrefix(text)
        else { return nil }
        return date
    }

    /// `date`'s day, `YYYY-MM-DD` (UTC).
    public static func dayText(_ date: Date) -> String { String(WireCoding.formatDate(date).prefix(10)) }
}

/// `GET /api/v1/quarantine`: entries, newest first.
public struct QuarantineList: Codable, Sendable, Hashable {
    public var entries: [QuarantineEntry]

    public init(entries: [QuarantineEntry]) { self.entries = entries }
}
