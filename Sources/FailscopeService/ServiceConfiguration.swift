import Foundation
import HTTPRouting
import HTTPServer

/// Everything `FailscopeApplication.build` needs besides the store: tokens, limits, the dashboard folder.
///
/// Tokens: writes (`PUT`/`POST` under `/api/v1`) need `Authorization: Bearer <one of uploadTokens>`; with no
/// upload token configured every write is refused (401), never silently open. Reads under `/api/v1` are
/// open unless `readToken` is set; then they need it (an upload token is accepted too). Quarantine changes need an
/// upload token or `adminToken` (a token that may change the quarantine but not upload).
public struct ServiceConfiguration: Sendable {
    public var uploadTokens: [String]
    public var readToken: String?
    public var adminToken: String?
    /// The dashboard folder served at `/`; `nil` serves a one-line notice instead.
    public var webDirectory: URL?
    /// Largest request bodies, bytes.
    public var maxRunBodyBytes: Int
    public var maxBatchBodyBytes: Int
    public var maxArtifactBytes: Int
    /// Where access log lines go (standard error by default).
    public var accessLog: any AccessLog
    /// Bytes of artifact files `GET /artifacts/…` keeps in memory, per kind (hot screenshots are sent from memory
    /// in one `sendmsg` instead of being opened for `sendfile`); 0 serves every request from disk. Default 64 MiB.
    public var artifactMemoryBytes: Int
    /// Webhooks: configured receivers, the public URL of links, the delivery worker's timing.
    public var webhooks: WebhookSettings
    /// Where the webhook worker's problems go (standard error by default); never given a secret or a URL's path.
    public var webhookLog: @Sendable (String) -> Void

    public init(
        uploadTokens: [String] = [], readToken: String? = nil, adminToken: String? = nil, webDirectory: URL? = nil,
        maxRunBodyBytes: Int = 64 << 10, maxBatchBodyBytes: Int = 32 << 20, maxArtifactBytes: Int = 32 << 20,
        accessLog: any AccessLog = StandardErrorAccessLog(), artifactMemoryBytes: Int = 64 << 20,
        webhooks: WebhookSettings = WebhookSettings(),
        webhookLog: @escaping @Sendable (String) -> Void = {
            FileHandle.standardError.write(Data(("failscope serve: " + $0 + "\n").utf8))
        }
    ) {
        self.uploadTokens = uploadTokens
        self.readToken = readToken
        self.adminToken = adminToken
        self.webDirectory = webDirectory
        self.maxRunBodyBytes = maxRunBodyBytes
        self.maxBatchBodyBytes = maxBatchBodyBytes
        self.maxArtifactBytes = maxArtifactBytes
        self.accessLog = accessLog
        self.artifactMemoryBytes = artifactMemoryBytes
        self.webhooks = webhooks
        self.webhookLog = webhookLog
    }
}
