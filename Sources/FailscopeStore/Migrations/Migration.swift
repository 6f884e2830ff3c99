import FailscopeModel

/// One schema migration: a numbered SQL file of an engine's folder in `Migrations/` (`0001_baseline.sql`).
///
/// Migrations are append-only: once shipped, a file is never edited (its SHA-256 is recorded when
/// applied and checked at every start) and never removed.
public struct Migration: Sendable, Hashable {
    /// The file name without `.sql`: four digits, an underscore, a lowercase name (`0001_baseline`).
    public var name: String
    /// The SQL text, run as one script inside the migration's transaction.
    public var sql: String

    public init(name: String, sql: String) {
        precondition(Self.isValidName(name), "a migration name is NNNN_name, got \(name)")
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the SQL text's UTF-8 bytes, lowercase hex.
    public var checksum: String { SHA256.hex(of: Array(sql.utf8)) }

    /// The number the name starts with.
    public var number: Int { Int(name.prefix(4))! }

    /// Whether `name` is four digits, `_`, then `[a-z0-9_]+`.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 5, bytes[4] == UInt8(ascii: "_") else { return false }
        return bytes[..<4].allSatisfy { (0x30...0x39).contains($0) }
            && bytes[5...].allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}
