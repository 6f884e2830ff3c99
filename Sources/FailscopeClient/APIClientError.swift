/// Why a request to the Failscope API failed.
public enum APIClientError: Error, CustomStringConvertible, Equatable {
    /// The service could not be reached (refused, timed out, DNS); worth retrying.
    case transport(String)
    /// The service answered with an error status and its JSON error (`{"error": {"code", "message"}}`).
    case status(code: Int, errorCode: String, message: String)
    /// The service answered 2xx with a body that is not what the API promises.
    case invalidResponse(String)

    /// Whether retrying the same request can succeed: transport errors, 408, 429 and 5xx.
    public var isRetryable: Bool {
        switch self {
        case .transport: true
        case .status(let code, _, _): code == 408 || code == 429 || code >= 500
        case .invalidResponse: false
        }
    }

    public var description: String {
        switch self {
        case .transport(let message): "cannot reach the service: \(message)"
        case .status(let code, let errorCode, let message): "the service answered \(code) \(errorCode): \(message)"
        case .invalidResponse(let message): "unexpected answer from the service: \(message)"
        }
    }
}
