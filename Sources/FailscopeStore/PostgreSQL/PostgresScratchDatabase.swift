import Foundation

/// A uniquely named database created on a PostgreSQL server for one test or benchmark and dropped after it
/// (`failscope_test_` and 32 hex digits), so passes running at once never see each other's rows.
@_spi(Engine) public struct PostgresScratchDatabase: Sendable {
    /// The database's libpq URI: the server's, with this database's name as its path.
    public let url: String
    private let server: String
    private let name: String

    /// Creates the database on the server of the libpq URI `server` (`postgres://user@host:port/db?…`).
    ///
    /// - Throws: `PostgresError` when `server` is not a URI (SQLSTATE `22023`), the server cannot be reached
    ///   or it refuses `CREATE DATABASE`.
    public init(server: String) throws {
        guard var components = URLComponents(string: server) else {
            throw PostgresError(sqlState: "22023", message: "not a PostgreSQL URI")
        }
        self.server = server
        name = "failscope_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresConnection(url: server, statementTimeoutMilliseconds: 30_000).execute("CREATE DATABASE \(name)")
        components.path = "/" + name
        url = components.string!
    }

    /// Drops the database, disconnecting whoever is still connected to it; errors are ignored (the server
    /// may be gone already).
    public func drop() {
        try? PostgresConnection(url: server, statementTimeoutMilliseconds: 30_000)
            .execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
