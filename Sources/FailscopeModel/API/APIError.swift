/// The body of every error response: `{"error": {"code": "...", "message": "..."}}`.
///
/// `code` is a stable machine word (`not_found`, `invalid_json`, `unauthorized`, ...); `message`
/// is for people and never contains SQL, stack traces or file system paths.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public var error: Detail

    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }

    public struct Detail: Codable, Sendable, Hashable {
        public var code: String
        public var message: String
    }
}
