import FailscopeModel
import Foundation
import HTTPServer

/// Checks `Authorization: Bearer <token>` (RFC 6750, section 2.1) against configured tokens in constant
/// time: every configured token is compared over its full length, whatever matched earlier.
struct BearerAuthorization: Sendable {
    let uploadTokens: [[UInt8]]
    let readToken: [UInt8]?
    /// The token that may change the quarantine without being an upload token.
    let adminToken: [UInt8]?

    init(uploadTokens: [String], readToken: String?, adminToken: String? = nil) {
        self.uploadTokens = uploadTokens.filter { !$0.isEmpty }.map { Array($0.utf8) }
        self.readToken = readToken.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
        self.adminToken = adminToken.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    /// The role of the request's token for an administrative request (a quarantine change, the webhooks): `admin` for
    /// the admin token, `upload` for an upload token. Throws 401 for any other token or none.
    func requireAdministration(_ request: Request) throws -> QuarantineEntry.Change.Role {
        guard !uploadTokens.isEmpty || adminToken != nil else {
            throw ServiceError(
                .unauthorized, code: "writes_disabled",
                message: "This server has no upload or admin token configured (--upload-token, --admin-token).")
        }
        let presented = try Self.bearer(request)
        // Both comparisons always run: the time does not say which kind of token matched.
        let isAdmin = adminToken.map { Self.anyMatches(presented, [$0]) } ?? false
        let isUpload = Self.anyMatches(presented, uploadTokens)
        if isAdmin { return .admin }
        if isUpload { return .upload }
        throw ServiceError.invalidToken
    }

    /// Throws 401 unless the request carries one of the upload tokens.
    func requireUpload(_ request: Request) throws {
        guard !uploadTokens.isEmpty else {
            throw ServiceError(
                .unauthorized, code: "uploads_disabled",
                message: "This server has no upload token configured (--upload-token or FAILSCOPE_UPLOAD_TOKENS).")
        }
        let presented = try Self.bearer(request)
        guard Self.anyMatches(presented, uploadTokens) else { throw ServiceError.invalidToken }
    }

    /// Throws 401 when a read token is configured and the request carries neither it nor an upload or admin token.
    func requireRead(_ request: Request) throws {
        guard let readToken else { return }
        let presented = try Self.bearer(request)
        guard Self.anyMatches(presented, uploadTokens + [readToken] + (adminToken.map { [$0] } ?? [])) else {
            throw ServiceError.invalidToken
        }
    }

    static func bearer(_ request: Request) throws -> [UInt8] {
        guard let field = request.headers["Authorization"] else {
            throw ServiceError(
                .unauthorized, code: "unauthorized", message: "Missing 'Authorization: Bearer <token>'.")
        }
        let parts = field.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw ServiceError(
                .unauthorized, code: "unauthorized", message: "The Authorization scheme must be Bearer.")
        }
        return Array(parts[1].trimmingCharacters(in: .whitespaces).utf8)
    }

    static func anyMatches(_ presented: [UInt8], _ tokens: [[UInt8]]) -> Bool {
        var matched = false
        for token in tokens { matched = constantTimeEqual(presented, token) || matched }
        return matched
    }

    /// Compares without an early exit; the time depends only on the lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        let count = max(a.count, b.count)
        for index in 0..<count {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0 && a.count == b.count
    }
}
