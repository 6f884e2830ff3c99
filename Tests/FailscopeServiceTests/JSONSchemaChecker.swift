import Foundation

/// A JSON value as parsed, keeping integers apart from other numbers and booleans apart from numbers.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses UTF-8 JSON text.
    /// - Throws: `DecodingError` for text that is not JSON.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// Checks JSON values against the schemas of an OpenAPI 3.0 document, for the subset of JSON Schema that
/// Failscope's document uses: `$ref` (within the document), `type`, `properties`, `required`, `items`, `enum`,
/// `const`, `not`, `format` (`date-time` checked, `binary` ignored), `pattern`, `minLength`, `maxLength`,
/// `minimum`, `maximum`, `maxItems`, `description`, and `additionalProperties: false` (what the checker assumes of
/// every object schema anyway; the document says it where the service refuses other keys too).
///
/// Stricter than JSON Schema in two ways, so that the service's JSON cannot drift from its contract: an object
/// schema that lists `properties` is closed (a member it does not list is a problem), and a keyword outside the
/// subset is a problem (the document cannot outgrow the checker unnoticed).
struct JSONSchemaChecker {
    let document: JSONValue
    /// The names of the component schemas (`#/components/schemas/<name>`) a check has entered.
    private(set) var visited: Set<String> = []

    private static let keywords: Set<String> = [
        "$ref", "type", "properties", "required", "items", "enum", "const", "not", "format", "pattern", "minLength",
        "maxLength", "minimum", "maximum", "maxItems", "description", "additionalProperties",
    ]

    init(document: JSONValue) {
        self.document = document
    }

    /// The value at a `#/a/b` pointer inside the document (`~1` and `~0` unescaped), or `nil`.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = node[key] else { return nil }
            node = next
        }
        return node
    }

    /// The problems of `value` against `schema`, each as `"<path>: <what>"` with `$` for the root; empty when
    /// the value conforms.
    mutating func problems(of value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object(let rules) = schema else { return ["\(path): the schema is not an object"] }
        var found: [String] = []
        for keyword in rules.keys where !Self.keywords.contains(keyword) {
            found.append("\(path): the schema keyword \(keyword) is not checked")
        }
        if let open = rules["additionalProperties"], open != .bool(false) {
            found.append("\(path): only additionalProperties false is checked")
        }
        if let reference = rules["$ref"]?.string {
            let prefix = "#/components/schemas/"
            if reference.hasPrefix(prefix) { visited.insert(String(reference.dropFirst(prefix.count))) }
            guard let target = resolve(reference) else { return found + ["\(path): no schema at \(reference)"] }
            return found + problems(of: value, against: target, at: path)
        }
        if let type = rules["type"]?.string, !Self.value(value, hasType: type) {
            return found + ["\(path): \(Self.describe(value)) is not of type \(type)"]
        }
        if case .array(let allowed)? = rules["enum"], !allowed.contains(value) {
            found.append("\(path): \(Self.describe(value)) is not one of the enumerated values")
        }
        if let constant = rules["const"], constant != value {
            found.append("\(path): \(Self.describe(value)) is not the constant \(Self.describe(constant))")
        }
        if let negated = rules["not"] {
            var inner = self
            if inner.problems(of: value, against: negated, at: path).isEmpty {
                found.append("\(path): \(Self.describe(value)) matches a schema it must not match")
            }
        }
        found += stringProblems(value, rules, path) + numberProblems(value, rules, path)
        if case .array(let elements) = value {
            if case .integer(let most)? = rules["maxItems"], elements.count > most {
                found.append("\(path): \(elements.count) items, more than \(most)")
            }
            if let items = rules["items"] {
                for (index, element) in elements.enumerated() {
                    found += problems(of: element, against: items, at: "\(path)[\(index)]")
                }
            }
        }
        if case .object(let members) = value {
            if case .array(let required)? = rules["required"] {
                for case .string(let name) in required where members[name] == nil {
                    found.append("\(path): the required member \(name) is missing")
                }
            }
            if case .object(let properties)? = rules["properties"] {
                for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                    guard let propertySchema = properties[name] else {
                        found.append("\(path): the member \(name) is not in the schema")
                        continue
                    }
                    found += problems(of: member, against: propertySchema, at: "\(path).\(name)")
                }
            }
        }
        return found
    }

    private func stringProblems(_ value: JSONValue, _ rules: [String: JSONValue], _ path: String) -> [String] {
        guard case .string(let text) = value else { return [] }
        var found: [String] = []
        let length = text.unicodeScalars.count
        if case .integer(let least)? = rules["minLength"], length < least {
            found.append("\(path): \(length) characters, fewer than \(least)")
        }
        if case .integer(let most)? = rules["maxLength"], length > most {
            found.append("\(path): \(length) characters, more than \(most)")
        }
        if let pattern = rules["pattern"]?.string,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            found.append("\(path): \(Self.describe(value)) does not match \(pattern)")
        }
        if rules["format"]?.string == "date-time", !Self.isDateTime(text) {
            found.append("\(path): \(Self.describe(value)) is not an RFC 3339 date-time")
        }
        return found
    }

    private func numberProblems(_ value: JSONValue, _ rules: [String: JSONValue], _ path: String) -> [String] {
        let number: Double
        switch value {
        case .integer(let whole): number = Double(whole)
        case .number(let fraction): number = fraction
        default: return []
        }
        var found: [String] = []
        if let least = rules["minimum"].flatMap(Self.number), number < least {
            found.append("\(path): \(number) is below the minimum \(least)")
        }
        if let most = rules["maximum"].flatMap(Self.number), number > most {
            found.append("\(path): \(number) is above the maximum \(most)")
        }
        return found
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let whole): Double(whole)
        case .number(let fraction): fraction
        default: nil
        }
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
            ("integer", .integer), ("number", .integer), ("number", .number):
            true
        default:
            false
        }
    }

    /// RFC 3339 `date-time` (JSON Schema's `format`): `2025-11-29T07:06:40Z`, with optional fractional seconds
    /// and a `Z` or `±hh:mm` offset.
    static func isDateTime(_ text: String) -> Bool {
        let pattern = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#
        return text.range(of: pattern, options: .regularExpression) != nil
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .integer(let whole): "\(whole)"
        case .number(let fraction): "\(fraction)"
        case .string(let text): "\"\(text.prefix(60))\""
        case .array(let elements): "an array of \(elements.count)"
        case .object: "an object"
        }
    }
}
