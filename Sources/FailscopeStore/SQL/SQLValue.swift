import Foundation

/// A value bound to a statement parameter or read from a column, in SQLite's storage classes
/// (https://sqlite.org/datatype3.html).
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as an `Int64` when it is an integer, `nil` otherwise.
    public var int64: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as an `Int` when it is an integer, `nil` otherwise.
    public var int: Int? { int64.map { Int($0) } }

    /// The value as a `Double` when it is a real or an integer.
    public var double: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The value as a `String` when it is text.
    public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

/// A Swift value that binds to a SQLite parameter.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLBindable {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Double: SQLBindable {
    public var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLBindable {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
