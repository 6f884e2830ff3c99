import Foundation

/// Where the store's database is, as `--database` / `FAILSCOPE_DATABASE` name it: an SQLite file (a path,
/// or `sqlite:PATH`; the default is the data folder's `failscope.sqlite`) or a PostgreSQL database (a
/// libpq URI, `postgres://user@host:port/db?sslmode=…`, https://www.postgresql.org/docs/15/libpq-connect.html).
///
/// A URI never carries a password: libpq reads it from `PGPASSWORD` or `~/.pgpass`, so it cannot reach a
/// log, an error message or `/metrics`.
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// The SQLite file of the data folder `directory` (`DIR/failscope.sqlite`).
    public static func sqlite(in directory: URL) -> DatabaseLocation {
        .sqlite(path: directory.appendingPathComponent(FailscopeStore.databaseFileName).path)
    }

    /// Parses a `--database` value.
    ///
    /// - Throws: `StoreError.invalid` for an empty value, a malformed `postgres://` URI, or one with a password.
    public init(parsing text: String) throws(StoreError) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard let components = URLComponents(string: text), components.host?.isEmpty == false else {
                throw .invalid("--database: not a PostgreSQL URI (postgres://user@host:port/database)")
            }
            guard components.password == nil,
                components.queryItems?.contains(where: { $0.name.lowercased() == "password" }) != true
            else {
                throw .invalid(
                    "--database: the URI carries a password; give it in PGPASSWORD or ~/.pgpass instead, so it "
                        + "never appears in logs")
            }
            self = .postgres(url: text)
            return
        }
        let path = text.hasPrefix("sqlite:") ? String(text.dropFirst("sqlite:".count)) : text
        guard !path.isEmpty else { throw .invalid("--database: empty; give a file path or a postgres:// URI") }
        self = .sqlite(path: path)
    }

    /// The engine's name (`SQLite`, `PostgreSQL`), for messages.
    public var engine: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    /// `sqlite:PATH` or the URI (which holds no password).
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url): url
        }
    }
}
