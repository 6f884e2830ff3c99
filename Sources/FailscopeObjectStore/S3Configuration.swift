import FailscopeStore
import Foundation

/// Where and how to reach an S3-compatible bucket: the `s3://bucket/prefix` location plus the usual AWS variables.
///
/// From the environment (the names the AWS CLI and SDKs read): `AWS_ENDPOINT_URL` (default
/// `https://s3.<region>.amazonaws.com`), `AWS_REGION` (else `AWS_DEFAULT_REGION`, else `us-east-1`),
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN` (temporary credentials, sent as
/// `x-amz-security-token`) and `AWS_S3_FORCE_PATH_STYLE` (`true`: `ENDPOINT/bucket/key`, which MinIO, SeaweedFS and
/// Ceph need; `false`: `bucket.ENDPOINT/key`, virtual-hosted; default `true` with an `AWS_ENDPOINT_URL`, else
/// `false`). ``description`` never contains the credentials.
public struct S3Configuration: Sendable, CustomStringConvertible {
    public var bucket: String
    /// Key prefix without leading or trailing `/` (may be empty): objects are `PREFIX/ab/<sha256>`.
    public var prefix: String
    /// Scheme, host and port, no path (`http://127.0.0.1:8333`).
    public var endpoint: String
    public var region: String
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?
    public var pathStyle: Bool
    /// Seconds to wait for a connection, and for a whole request (a slow store answers 503 after this).
    public var connectTimeout: Int = 5
    public var requestTimeout: Int = 30

    public var description: String { "s3://\(bucket)\(prefix.isEmpty ? "" : "/" + prefix)" }

    /// Whether `text` names object storage (`s3://…`) rather than a folder.
    public static func isObjectStorage(_ text: String) -> Bool { text.hasPrefix("s3://") }

    /// Parses `s3://bucket/prefix` and reads the AWS variables from `environment`.
    ///
    /// - Throws: ``ArtifactStorageError/refused(_:)`` with a usage message for a malformed location, a missing
    ///   access key or secret, or a malformed endpoint.
    public init(location: String, environment: [String: String]) throws {
        guard Self.isObjectStorage(location) else {
            throw ArtifactStorageError.refused("an object storage location is s3://BUCKET[/PREFIX]")
        }
        let rest = location.dropFirst("s3://".count)
        let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        bucket = String(parts[0])
        prefix = parts.count > 1 ? parts[1].split(separator: "/").joined(separator: "/") : ""
        guard (3...63).contains(bucket.count),
            bucket.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".") })
        else {
            throw ArtifactStorageError.refused(
                "a bucket name is 3 to 63 lowercase letters, digits, '-' or '.' (s3://BUCKET[/PREFIX])")
        }
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        let endpointText = value("AWS_ENDPOINT_URL")
        var endpoint = endpointText ?? "https://s3.\(region).amazonaws.com"
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        guard let url = URL(string: endpoint), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil, url.path.isEmpty, url.user == nil, url.password == nil
        else {
            throw ArtifactStorageError.refused(
                "AWS_ENDPOINT_URL must be http(s)://HOST[:PORT] without a path or credentials")
        }
        self.endpoint = endpoint
        guard let key = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") else {
            throw ArtifactStorageError.refused("object storage needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        accessKeyID = key
        secretAccessKey = secret
        sessionToken = value("AWS_SESSION_TOKEN")
        switch value("AWS_S3_FORCE_PATH_STYLE")?.lowercased() {
        case "true", "1", "yes": pathStyle = true
        case "false", "0", "no": pathStyle = false
        case nil: pathStyle = endpointText != nil
        case let other?:
            throw ArtifactStorageError.refused("AWS_S3_FORCE_PATH_STYLE must be true or false, not \(other)")
        }
    }

    /// The URL of `key` (already percent-encoded) or of the bucket itself (`key` empty), with `query` (encoded).
    func url(key: String, query: String = "") -> String {
        let base: String
        if pathStyle {
            base = "\(endpoint)/\(bucket)"
        } else {
            let schemeEnd = endpoint.range(of: "://")!.upperBound
            base = endpoint[..<schemeEnd] + bucket + "." + endpoint[schemeEnd...]
        }
        let path = key.isEmpty ? (pathStyle ? "" : "/") : "/" + key
        return base + path + (query.isEmpty ? "" : "?" + query)
    }

    /// The object key of a digest: `PREFIX/ab/<sha256>` (the fan-out keeps listings of one folder short in
    /// consoles).
    func key(sha256: String) -> String {
        let fanOut = String(sha256.prefix(2)) + "/" + sha256
        return prefix.isEmpty ? fanOut : prefix + "/" + fanOut
    }

    /// `text` percent-encoded for a URI path or query (RFC 3986 unreserved characters kept; `/` kept in paths):
    /// the form SigV4 signs.
    static func percentEncoded(_ text: String, keepingSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if character.isASCII && (character.isLetter || character.isNumber || "-._~".contains(character))
                || (keepingSlash && byte == UInt8(ascii: "/"))
            {
                out.append(character)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
