import Foundation

/// Appends JSON (RFC 8259) to a byte buffer exactly as `WireCoding.encoder()` writes it: sorted keys
/// (the caller writes them in order), absent optionals omitted, `/` unescaped, ISO 8601 dates with
/// milliseconds, integral `Double`s without a fraction.
///
/// `JSONEncoder` on Linux costs about 10 µs for one small `TestResult`; the reporter spools one per
/// test and the service answers 5,000-result run pages, so those hot paths write through this instead
/// (about ten times faster). Every value type written here has a test comparing its bytes with
/// `JSONEncoder`'s for the same value (`WireJSONWriterTests`).
public struct WireJSONWriter: Sendable {
    /// The JSON written so far (UTF-8).
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// Appends `text` as is: punctuation and keys the caller knows need no escaping.
    public mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a JSON value this writer encoded before.
    public mutating func encoded(_ json: Data) {
        bytes.append(contentsOf: json)
    }

    public mutating func comma() {
        bytes.append(UInt8(ascii: ","))
    }

    public mutating func integer(_ value: Int) {
        raw(String(value))
    }

    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// A `Double` as `JSONEncoder` writes it: integral values without a fraction, others in Swift's
    /// shortest round-tripping form. NaN and infinities (which `JSONEncoder` refuses) become `null`.
    public mutating func number(_ value: Double) {
        if !value.isFinite {
            raw("null")
        } else if value == value.rounded(), abs(value) < 1e15 {
            raw(String(Int64(value)))
        } else {
            raw(value.description)
        }
    }

    /// An ISO 8601 date string as `WireCoding.formatDate` gives it.
    public mutating func date(_ value: Date) {
        string(WireCoding.formatDate(value))
    }

    /// A JSON string (RFC 8259 §7) escaped as `JSONEncoder` does: `"`, `\` and control characters.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escaping: copy it in one go.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `{`, the keys `body` adds (in the order given: sorted, to match `JSONEncoder`) and `}`.
    public mutating func object(_ body: (inout Object) -> Void) {
        var object = Object(writer: self)
        self = WireJSONWriter()  // the buffer now has one owner: appending through `object` copies nothing
        body(&object)
        swap(&self, &object.writer)
        raw(object.isEmpty ? "{}" : "}")
    }

    /// Writes `[`, `element` for each value with commas between, and `]`.
    public mutating func array<Element>(_ values: some Sequence<Element>, _ element: (inout Self, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { comma() }
            first = false
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The keys of one object being written (see `object(_:)`).
    public struct Object {
        var writer: WireJSONWriter
        var isEmpty = true

        /// Writes the separator and `"name":`; the value follows through `writer`.
        public mutating func key(_ name: String) {
            writer.bytes.append(UInt8(ascii: isEmpty ? "{" : ","))
            isEmpty = false
            writer.bytes.append(UInt8(ascii: "\""))
            writer.raw(name)
            writer.raw("\":")
        }

        /// A key and its value written by `value`.
        public mutating func field(_ name: String, _ value: (inout WireJSONWriter) -> Void) {
            key(name)
            value(&writer)
        }

        public mutating func string(_ name: String, _ value: String?) {
            guard let value else { return }
            key(name)
            writer.string(value)
        }

        public mutating func date(_ name: String, _ value: Date?) {
            guard let value else { return }
            key(name)
            writer.date(value)
        }

        public mutating func number(_ name: String, _ value: Double?) {
            guard let value else { return }
            key(name)
            writer.number(value)
        }

        public mutating func integer(_ name: String, _ value: Int?) {
            guard let value else { return }
            key(name)
            writer.integer(value)
        }

        public mutating func bool(_ name: String, _ value: Bool) {
            key(name)
            writer.bool(value)
        }
    }
}
