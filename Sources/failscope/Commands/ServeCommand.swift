import FailscopeService
import Foundation
import HTTPServer

/// `failscope serve`: runs the HTTP API, the artifact files and the dashboard over one data folder.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the Failscope service (API, artifacts, dashboard)."
    static let discussion = """
        Migrations are applied at start; a database that cannot be trusted stops the service (exit 1),
        one that cannot be reached too (exit 69).
        SIGINT or SIGTERM stop it gracefully (in-flight requests finish, the database is closed).
        """

    static let host = Option<String>(
        "host", value: "host", help: "Address to listen on.", default: "127.0.0.1", environment: "FAILSCOPE_HOST")
    static let port = Option<Int>.integer(
        "port", value: "port", in: 0...65535, help: "TCP port; 0 picks a free one.", default: 8080,
        environment: "FAILSCOPE_PORT")
    static let uploadToken = Option<String>(
        "upload-token", value: "token",
        help: "A token that may upload; repeat for several. Without one, uploads are refused.",
        environment: "FAILSCOPE_UPLOAD_TOKENS", repeatable: true)
    static let readToken = Option<String>(
        "read-token", value: "token", help: "Require this token (or an upload token) for API reads.",
        environment: "FAILSCOPE_READ_TOKEN")
    static let adminToken = Option<String>(
        "admin-token", value: "token",
        help: "A token that may change the quarantine (as upload tokens may) but not upload.",
        environment: "FAILSCOPE_ADMIN_TOKEN")
    static let web = Option<String>(
        "web", value: "dir", help: "The dashboard folder.",
        defaultHelp: "Web/ beside the binary, in ../share/failscope, or in the source checkout",
        environment: "FAILSCOPE_WEB")
    static let threads = Option<Int>.integer("threads", in: 1...64, help: "HTTP worker threads.", default: 4)
    static let connectionsPerAddress = Option<Int>.integer(
        "connections-per-address", in: 0...100_000,
        help: "Most simultaneous connections from one IP address; 0 for no cap (behind a proxy, every client has "
            + "its address).", defaultHelp: "\(HTTPServerConfiguration().connectionsPerAddressLimit)",
        environment: "FAILSCOPE_CONNECTIONS_PER_ADDRESS")
    static let retentionDays = Option<Int>.integer(
        "retention-days", in: 1...36_500,
        help: "Delete runs older than n days at start and then daily, like 'failscope gc' without VACUUM.",
        defaultHelp: "keep everything", environment: "FAILSCOPE_RETENTION_DAYS")
    static let webhook = Option<String>(
        "webhook", value: "url",
        help: "Send events (run.finished, test.flaky, test.broken, test.fixed) to this http or https URL; repeat for "
            + "several. More can be added through the API.",
        environment: "FAILSCOPE_WEBHOOKS", repeatable: true, parse: webhookURL(parsing:))
    static let webhookSecret = Option<String>(
        "webhook-secret", value: "secret",
        help: "The key of the X-Failscope-Signature HMAC of --webhook deliveries; required with --webhook. Prefer "
            + "the environment: arguments show in ps.", environment: "FAILSCOPE_WEBHOOK_SECRET")
    static let publicURL = Option<String>(
        "public-url", value: "url", help: "The dashboard's address as webhook receivers reach it, for event links.",
        defaultHelp: "http://<host>:<port>/", environment: "FAILSCOPE_PUBLIC_URL", parse: webhookURL(parsing:))
    static let options: [any OptionDeclaration] = [
        host, port, SharedOptions.data, SharedOptions.database, SharedOptions.artifacts,
        SharedOptions.artifactCacheMegabytes, uploadToken, readToken, adminToken, web, threads,
        connectionsPerAddress, retentionDays, webhook, webhookSecret, publicURL,
    ]

    /// An absolute http or https URL with a host; the refusal does not quote it (a webhook URL may hold a token).
    static func webhookURL(parsing text: String) throws(InvalidValue) -> String {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            !(url.host ?? "").isEmpty
        else { throw InvalidValue(message: "--webhook and --public-url must be http or https URLs with a host") }
        return text
    }

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let host = try arguments.required(Self.host)
        let port = try arguments.required(Self.port)
        let data = try arguments.dataDirectory()
        let database = try arguments.value(SharedOptions.database)
        let artifacts = try arguments.artifactStorage(data: data, cache: true)
        let uploadTokens = try arguments.values(uploadToken)
        let readToken = try arguments.value(Self.readToken)
        let adminToken = try arguments.value(Self.adminToken)
        let webOption = try arguments.value(web)
        let threads = try arguments.required(Self.threads)
        let connectionsPerAddress = try arguments.value(Self.connectionsPerAddress)
        let retentionDays = try arguments.value(Self.retentionDays)
        let webhooks = try arguments.values(webhook)
        let webhookSecret = try arguments.value(Self.webhookSecret)
        let publicURL = try arguments.value(Self.publicURL)
        if !webhooks.isEmpty && webhookSecret == nil {
            throw UsageError("--webhook needs --webhook-secret or FAILSCOPE_WEBHOOK_SECRET (the signature's key)")
        }

        let web: URL?
        do {
            web = try WebDirectoryLocator.locate(explicit: webOption)
        } catch {
            throw UsageError("--web: no folder at \(webOption ?? "")")
        }
        let server: FailscopeServer
        do {
            server = try FailscopeServer(
                dataDirectory: data, database: database, artifacts: artifacts, host: host, port: port,
                threadCount: threads, connectionsPerAddress: connectionsPerAddress,
                configuration: ServiceConfiguration(
                    uploadTokens: uploadTokens, readToken: readToken, adminToken: adminToken, webDirectory: web,
                    webhooks: WebhookSettings(urls: webhooks, secret: webhookSecret, publicURL: publicURL)))
        } catch {
            throw CommandError(store: error, "cannot start: ")
        }
        let signals = server.installSignalHandlers { number in
            printError("failscope serve: signal \(number), finishing in-flight requests")
        }
        let listenHost = host.contains(":") ? "[\(host)]" : host
        printError("failscope serve: listening on http://\(listenHost):\(server.port)")
        printError(
            "failscope serve: data \(data.standardizedFileURL.path), database "
                + "\(database ?? .sqlite(in: data.standardizedFileURL)), artifacts "
                + "\(server.application.store.artifacts.location), dashboard \(web?.path ?? "(none)")"
        )
        do {
            try server.application.store.artifacts.checkHealth()
        } catch {
            printError("failscope serve: \(error); uploads get 503 until it answers (see /healthz)")
        }
        if server.application.store.isStorageFull {
            printError(
                "failscope serve: the disk holding \(data.standardizedFileURL.path) is full: uploads are refused "
                    + "(507 insufficient_storage) until space is freed; reads work")
        }
        let sweep = retentionDays.map { days in
            server.startRetentionSweep(keepDays: days) { printError("failscope serve: \($0)") }
        }
        if !webhooks.isEmpty {
            let links = WebhookSettings(publicURL: publicURL).publicURL ?? "http://\(listenHost):\(server.port)/"
            printError("failscope serve: \(webhooks.count) configured webhook(s); events link to \(links)")
        }
        if uploadTokens.isEmpty {
            printError("failscope serve: no upload token configured: uploads will be refused (--upload-token)")
        }
        server.waitUntilStopped()
        sweep?.cancel()
        signals.cancel()
        printError("failscope serve: stopped")
        return 0
    }
}
