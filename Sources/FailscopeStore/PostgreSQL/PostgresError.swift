/// An error reported by PostgreSQL or libpq: the SQLSTATE (https://www.postgresql.org/docs/15/errcodes-appendix.html),
/// the server's or libpq's message, and the SQL that failed.
///
/// Bound values never appear in `description` (they may hold test-controlled text), and neither does the
/// connection URL (libpq's connection messages name the host and port only).
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Five characters (`40001` serialization failure, `23505` unique violation, ...); `08006` when libpq lost
    /// or could not make the connection and the server said nothing.
    public var sqlState: String
    public var message: String
    public var sql: String?

    public init(sqlState: String, message: String, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
    }

    /// A transaction that found another writer's work in its way and must run again (as the server's own
    /// serialization failures are).
    static let serializationFailure = PostgresError(
        sqlState: "40001", message: "another writer changed the same rows; the transaction runs again")

    /// The transaction lost a race with another (serialization failure, deadlock): running it again succeeds.
    var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// Connection exceptions (class 08) and the server shutting down or starting (57P01...57P03).
    var isConnectionLost: Bool { sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState) }

    /// The store's word for this condition when a caller acts on it, `nil` for the rest (a bug: a 500).
    var storeError: StoreError? {
        if isConnectionLost { return .unavailable("PostgreSQL is not reachable (\(sqlState))") }
        switch sqlState {
        // Retries used up, too many connections, a lock not granted.
        case "40001", "40P01", "53300", "55P03": return .busy
        // The statement timeout (or an administrator's cancel, which the server reports the same way).
        case "57014": return .timedOut("PostgreSQL cancelled a statement at its time limit (\(message))")
        case "53100": return .storageFull("The database server's disk is full: nothing was stored. Free some space; reads still work.")
        default: return nil
        }
    }

    public var description: String {
        var text = "PostgreSQL error \(sqlState): \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }
}

extension PostgresError {
    /// Runs `body`, throwing ``storeError`` in place of a `PostgresError` that has one.
    static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            throw error.storeError ?? error
        }
    }
}
