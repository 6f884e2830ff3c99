import Foundation

/// How the importers name a test, so that one test has one identity (suite, name, arguments) whether it
/// comes from JUnit, Swift Testing's event stream, xcresult JSON or the Failscope reporter.
///
/// The reporter's names are the reference (docs/importing.md, "Test identity"):
/// - XCTest: suite = the class name without its module (`CatalogTests`), name = the method (`testSearch`).
/// - Swift Testing: suite = the test's ID path without its module (`Module.Outer/Inner/f()` → `Outer.Inner`;
///   a free function's suite is its module), name = the function (`f()`, `select(color:count:)`), arguments
///   = `label: value` pairs in parameter order (`color: "Blue", count: 2`).
public enum ReportIdentity {
    /// A class name with the module dropped when `hasModulePrefix`: `MyTests.CatalogTests` → `CatalogTests`.
    /// A name without a dot is returned as it is.
    public static func suite(_ classname: String, hasModulePrefix: Bool) -> String {
        guard hasModulePrefix, let dot = classname.firstIndex(of: "."), classname.index(after: dot) < classname.endIndex
        else { return classname }
        return String(classname[classname.index(after: dot)...])
    }

    /// An XCTest method as xcresult and its converters write it, `testSearch()`, becomes `testSearch`, as
    /// XCTest and the reporter name it. XCTest runs only `test…` methods without parameters, so only those lose
    /// the `()`; a Swift Testing function keeps its parentheses (`login()`, `select(color:)`).
    public static func name(_ name: String) -> String {
        guard name.hasSuffix("()"), name.hasPrefix("test") else { return name }
        let base = name.dropLast(2)
        guard base.unicodeScalars.allSatisfy(isIdentifierScalar) else {
            return name
        }
        return String(base)
    }

    /// The parameter labels of a Swift function name: `canEdit(role:isOwner:)` → `["role", "isOwner"]`,
    /// `f(_:)` → `["_"]`; `nil` for a name without parameters (`f()`, `testSearch`, a display name).
    public static func parameterLabels(of name: String) -> [String]? {
        guard name.hasSuffix(":)"), let open = name.lastIndex(of: "(") else { return nil }
        let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
        let labels = inside.split(separator: ":", omittingEmptySubsequences: false).dropLast().map(String.init)
        guard !labels.isEmpty,
            labels.allSatisfy({ label in
                !label.isEmpty
                    && label.unicodeScalars.allSatisfy(isIdentifierScalar)
            })
        else { return nil }
        return labels
    }

    /// A letter, digit or `_`: what a Swift identifier (and a JUnit writer's method name) is made of. ASCII is
    /// decided without Unicode tables (this runs for every test case of a report).
    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        case 0..<0x80: false
        default: scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// Whether `name` names a function that takes parameters, so that its results are parameterized cases.
    public static func isParameterized(_ name: String) -> Bool { parameterLabels(of: name) != nil }

    /// The argument text of a parameterized case as the reporter writes it, `label: value, …`, from a converter's
    /// unlabelled text (`.viewer, false` from xcresult, `"a"` from the event stream) and the function's name.
    /// Text that already starts with the first label, or whose values do not match the labels one to one
    /// (top-level commas, outside quotes and brackets), is returned as it is.
    public static func arguments(_ text: String, function name: String) -> String {
        guard let labels = parameterLabels(of: name) else { return text }
        if text.hasPrefix(labels[0] + ": ") { return text }
        let values = topLevelValues(text)
        guard values.count == labels.count else { return text }
        return zip(labels, values).map { "\($0): \($1)" }.joined(separator: ", ")
    }

    /// `"a, b", [1, 2], .x` → `["\"a, b\"", "[1, 2]", ".x"]`: splits at commas outside quotes and brackets.
    static func topLevelValues(_ text: String) -> [String] {
        var values: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        var escaped = false
        for character in text {
            if let open = quote {
                current.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth = max(0, depth - 1)
            case "," where depth == 0:
                values.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        values.append(current.trimmingCharacters(in: .whitespaces))
        return values
    }
}
