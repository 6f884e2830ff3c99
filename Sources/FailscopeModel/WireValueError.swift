import Foundation

/// Why a JSON value was refused, in words for the sender (`expected one of run.finished, …`): the underlying
/// error of a `DecodingError.dataCorrupted` that Failscope's own decoding throws. The service's `invalid_json`
/// message says it after the value's path; it never repeats the value (test-controlled text).
public struct WireValueError: LocalizedError, Sendable {
    public var expected: String

    /// `expected`: what would have been accepted (`an ISO 8601 date`, `one of a, b`).
    public init(expected: String) {
        self.expected = expected
    }

    public var errorDescription: String? { "expected \(expected)" }

    /// The `DecodingError` for the value `decoder` is at.
    public static func decodingError(expected: String, at decoder: any Decoder) -> DecodingError {
        .dataCorrupted(
            .init(
                codingPath: decoder.codingPath, debugDescription: "expected \(expected)",
                underlyingError: WireValueError(expected: expected)))
    }
}
