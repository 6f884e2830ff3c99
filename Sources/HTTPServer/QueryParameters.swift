/// The parameters of a URL query string (`a=1&b=x%20y`), percent-decoded, in order.
///
/// Decoding follows `application/x-www-form-urlencoded` (WHATWG URL standard, section 5.1): `+` is a space,
/// `%XX` is a byte, and the bytes are read as UTF-8 (invalid sequences become U+FFFD). A key without `=` has the
/// value `""`. Repeated keys are all kept.
public struct QueryParameters: Sendable, Sequence, Equatable {
    /// The `(name, value)` pairs in query-string order.
    public private(set) var pairs: [(name: String, value: String)]

    public init() { pairs = [] }

    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Parses a raw query string (without the leading `?`).
    public init(parsing query: Substring) {
        pairs = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            if let eq = part.firstIndex(of: "=") {
                pairs.append(
                    (
                        name: PercentDecoding.decodeForm(part[..<eq]),
                        value: PercentDecoding.decodeForm(part[part.index(after: eq)...])
                    ))
            } else {
                pairs.append((name: PercentDecoding.decodeForm(part), value: ""))
            }
        }
    }

    /// The first value for `name` (exact, case-sensitive), or `nil`.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// Appends a pair.
    public mutating func add(_ name: String, _ value: String) { pairs.append((name: name, value: value)) }

    public var isEmpty: Bool { pairs.isEmpty }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { pairs.makeIterator() }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0 == $1 }
    }
}

/// Percent-decoding of URL components (RFC 3986, section 2.1).
package enum PercentDecoding {
    /// Decodes `%XX` escapes; `nil` if an escape is malformed (`%`, `%4`, `%zz`) or the result is not UTF-8.
    package static func decodePath<S: StringProtocol>(_ text: S) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Form decoding: `+` is a space, malformed escapes are kept literally, invalid UTF-8 is repaired.
    static func decodeForm<S: StringProtocol>(_ text: S) -> String {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "%")) || utf8.contains(UInt8(ascii: "+")) else { return String(text) }
        let source = Array(utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count)
        var i = 0
        while i < source.count {
            let byte = source[i]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), i + 2 < source.count,
                let high = hexValue(source[i + 1]), let low = hexValue(source[i + 2])
            {
                bytes.append(high << 4 | low)
                i += 2
            } else {
                bytes.append(byte)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
