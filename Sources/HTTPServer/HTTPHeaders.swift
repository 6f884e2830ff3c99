/// HTTP header fields in order, with case-insensitive name lookup (RFC 9110, section 5.1).
///
/// Names keep the spelling they were added with; lookups compare names ASCII case-insensitively.
/// Repeated fields are kept as separate entries.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    /// The fields as `(name, value)` pairs in the order they were added.
    public private(set) var fields: [(name: String, value: String)]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field `name` (any case), or `nil`. Setting replaces every field of that name;
    /// setting `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            for field in fields where Self.equalNames(field.name, name) { return field.value }
            return nil
        }
        set {
            remove(name)
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Every value of the field `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.equalNames($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping earlier fields of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.equalNames($0.name, name) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { equalNames($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison, without allocating.
    static func equalNames(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for i in 0..<x.count where x[i] != y[i] {
                    let lx = x[i] | 0x20
                    guard lx == (y[i] | 0x20), lx >= UInt8(ascii: "a"), lx <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }
}
