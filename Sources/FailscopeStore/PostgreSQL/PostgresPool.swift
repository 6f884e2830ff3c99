import Foundation

/// Up to `maximumConnectionCount` connections to one PostgreSQL database, opened on first need and reused;
/// a caller beyond that waits for one to come back.
///
/// `transaction` runs its body in one transaction and runs it again, on a fresh transaction, when the server
/// aborts it for a serialization failure or a deadlock (SQLSTATE 40001, 40P01: another replica wrote the same
/// rows), so concurrent writers neither fail nor duplicate. A connection that broke (the server restarted,
/// the network dropped) is discarded and the error leaves as `StoreError.unavailable`; the next call opens a
/// new one, so the store recovers by itself once the server is back. `close()` closes the idle connections
/// and makes later calls throw.
final class PostgresPool: @unchecked Sendable {
    /// The transaction isolation (https://www.postgresql.org/docs/15/transaction-iso.html).
    enum Isolation: String {
        case readCommitted = "READ COMMITTED"
        case serializable = "SERIALIZABLE"
        /// One snapshot for every statement, no writes: the store's reads.
        case snapshot = "REPEATABLE READ, READ ONLY"
    }

    private let url: String
    private let statementTimeoutMilliseconds: Int
    /// Attempts of a transaction that keeps losing races before `StoreError.busy`.
    let maximumAttempts: Int
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var idle: [PostgresConnection] = []
    private var closed = false

    /// A pool for the libpq URI `url`; connects once now, so an unreachable server is an error at start.
    ///
    /// - Throws: `StoreError.unavailable` when the server cannot be reached.
    init(
        url: String, maximumConnectionCount: Int = 8, statementTimeoutMilliseconds: Int = 30_000,
        maximumAttempts: Int = 10
    ) throws {
        precondition(maximumConnectionCount >= 1, "a pool needs at least one connection")
        self.url = url
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
        self.maximumAttempts = maximumAttempts
        slots = DispatchSemaphore(value: maximumConnectionCount)
        let first = try PostgresError.translating {
            try PostgresConnection(url: url, statementTimeoutMilliseconds: statementTimeoutMilliseconds)
        }
        idle.append(first)
    }

    /// Runs `body` with exclusive use of one connection, outside a transaction (each statement commits).
    ///
    /// - Throws: what `body` throws, with `PostgresError`s that are a store condition as `StoreError`.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try PostgresError.translating { try withCheckedOutConnection(body) }
    }

    /// Runs `body` inside one transaction and commits; runs it again after a serialization failure or a
    /// deadlock, up to ``maximumAttempts`` times. `body` must have no effect outside the database.
    ///
    /// - Throws: what `body` throws (rolled back), `StoreError.busy` when every attempt lost its race.
    func transaction<T>(_ isolation: Isolation = .readCommitted, _ body: (PostgresConnection) throws -> T) throws -> T {
        try PostgresError.translating {
            var attempt = 1
            var reconnected = false
            while true {
                do {
                    return try withCheckedOutConnection { connection in
                        try connection.execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
                        do {
                            let value = try body(connection)
                            try connection.execute("COMMIT")
                            return value
                        } catch {
                            if !connection.isBroken { try? connection.execute("ROLLBACK") }
                            throw error
                        }
                    }
                } catch let error as PostgresError where error.isConnectionLost && !reconnected {
                    // An idle connection the server dropped (a restart, a failover) fails on first use: once, run
                    // it again on a new connection. The store's writes are idempotent, so a commit whose answer
                    // was lost is harmless to repeat.
                    reconnected = true
                } catch let error as PostgresError where error.isRetryable && attempt < maximumAttempts {
                    // Lost a race with another writer: back off a little, longer each time, and run it again.
                    attempt += 1
                    usleep(UInt32.random(in: 1_000...(5_000 * UInt32(attempt))))
                }
            }
        }
    }

    private func withCheckedOutConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes the idle connections; later calls throw `StoreError.unavailable`. Idempotent.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        idle.removeAll()
    }

    private func checkOut() throws -> PostgresConnection {
        lock.lock()
        if closed {
            lock.unlock()
            throw StoreError.unavailable("the store is closed")
        }
        if let connection = idle.popLast() {
            lock.unlock()
            return connection
        }
        lock.unlock()
        return try PostgresConnection(url: url, statementTimeoutMilliseconds: statementTimeoutMilliseconds)
    }

    private func checkIn(_ connection: PostgresConnection) {
        lock.lock()
        defer { lock.unlock() }
        if !closed && !connection.isBroken { idle.append(connection) }
    }
}
