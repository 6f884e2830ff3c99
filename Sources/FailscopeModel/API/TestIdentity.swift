/// A test's stable identity (docs/architecture.md, "Words"): project, suite, name and, for a parameterized
/// test, the argument text.
///
/// `id` is the first 32 hexadecimal digits of SHA-256 over `project`, `suite`, `name` and
/// `arguments ?? ""` joined by U+001F, so the same test has the same id in every database and URL.
public struct TestIdentity: Codable, Sendable, Hashable {
    public var id: String
    public var project: String
    public var suite: String
    public var name: String
    public var arguments: String?

    public init(project: String, suite: String, name: String, arguments: String?) {
        self.project = project
        self.suite = suite
        self.name = name
        self.arguments = arguments
        self.id = Self.id(project: project, suite: suite, name: name, arguments: arguments)
    }

    /// The stable id of a test; see the type's documentation.
    public static func id(project: String, suite: String, name: String, arguments: String?) -> String {
        let key = [project, suite, name, arguments ?? ""].joined(separator: "\u{1F}")
        return String(SHA256.hex(of: Array(key.utf8)).prefix(32))
    }

    /// Whether `text` has the shape of a test id: 32 lowercase hexadecimal digits.
    public static func isValidID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
