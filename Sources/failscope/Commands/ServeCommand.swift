import FailscopeService
import Foundation
import HTTPServer

/// `failscope serve`: runs the HTTP API, the artifact files and the dashboard over one data folder.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the Failscope service (API, artifacts, dashboard)."
    static let usage = """
        USAGE: failscope serve [--host <host>] [--port <port>] [--data <dir>] [--database <db>]
                               [--upload-token <token>]... [--read-token <token>] [--web <dir>] [--threads <n>]
                               [--retention-days <n>] [--connections-per-address <n>]
                               [--webhook <url>]... [--webhook-secret <secret>] [--public-url <url>]

        OPTIONS:
          --host <host>           Address to listen on. (default: 127.0.0.1; env FAILSCOPE_HOST)
          --port <port>           TCP port; 0 picks a free one. (default: 8080; env FAILSCOPE_PORT)
          --data <dir>            Folder of the database and artifacts. (default: .failscope; env FAILSCOPE_DATA)
        \(Arguments.databaseHelp)
          --upload-token <token>  A token that may upload; repeat for several. Without one, uploads are refused.
                                  (env FAILSCOPE_UPLOAD_TOKENS, comma-separated)
          --read-token <token>    Require this token (or an upload token) for API reads. (env FAILSCOPE_READ_TOKEN)
          --web <dir>             The dashboard folder. (default: Web/ beside the binary, in ../share/failscope,
                                  or in the source checkout; env FAILSCOPE_WEB)
          --threads <n>           HTTP worker threads. (default: 4)
          --connections-per-address <n>
                                  Most simultaneous connections from one IP address; 0 for no cap (behind a
                                  proxy, every client has its address). (default: \(HTTPServerConfiguration().connectionsPerAddressLimit);
                                  env FAILSCOPE_CONNECTIONS_PER_ADDRESS)
          --retention-days <n>    Delete runs older than n days at start and then daily, like
                                  'failscope gc' without VACUUM. (default: keep everything;
                                  env FAILSCOPE_RETENTION_DAYS)
          --webhook <url>         Send events (run.finished, test.flaky, test.broken, test.fixed) to this http or
                                  https URL; repeat for several. More can be added through the API.
                                  (env FAILSCOPE_WEBHOOKS, comma-separated)
          --webhook-secret <secret>
                                  The key of the X-Failscope-Signature HMAC of --webhook deliveries; required
                                  with --webhook. Prefer the environment: arguments show in ps.
                                  (env FAILSCOPE_WEBHOOK_SECRET)
          --public-url <url>      The dashboard's address as webhook receivers reach it, for the links in
                                  events. (default: http://<host>:<port>/; env FAILSCOPE_PUBLIC_URL)

          Migrations are applied at start; a database that cannot be trusted stops the service (exit 1),
          one that cannot be reached too (exit 69).
          SIGINT or SIGTERM stop it gracefully (in-flight requests finish, the database is closed).
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let host = arguments.option("host") ?? environment["FAILSCOPE_HOST"] ?? "127.0.0.1"
        let portText = arguments.option("port") ?? environment["FAILSCOPE_PORT"] ?? "8080"
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw UsageError("--port must be a whole number in 0...65535, got \"\(portText)\"")
        }
        let data = try arguments.dataDirectory()
        let database = try arguments.database()
        var uploadTokens = arguments.options("upload-token")
        if uploadTokens.isEmpty, let list = environment["FAILSCOPE_UPLOAD_TOKENS"] {
            uploadTokens = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        let readToken =
            arguments.option("read-token") ?? environment["FAILSCOPE_READ_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let webOption = arguments.option("web") ?? environment["FAILSCOPE_WEB"]
        let threads = try arguments.integer("threads", default: 4, in: 1...64)
        let perAddressText =
            arguments.option("connections-per-address") ?? environment["FAILSCOPE_CONNECTIONS_PER_ADDRESS"]
        var connectionsPerAddress: Int?
        if let perAddressText {
            guard let cap = Int(perAddressText), (0...100_000).contains(cap) else {
                throw UsageError(
                    "--connections-per-address must be a whole number in 0...100000, got \"\(perAddressText)\"")
            }
            connectionsPerAddress = cap
        }
        let retentionText = arguments.option("retention-days") ?? environment["FAILSCOPE_RETENTION_DAYS"]
        var retentionDays: Int?
        if let retentionText {
            guard let days = Int(retentionText), (1...36_500).contains(days) else {
                throw UsageError("--retention-days must be a whole number in 1...36500, got \"\(retentionText)\"")
            }
            retentionDays = days
        }
        var webhooks = arguments.options("webhook")
        if webhooks.isEmpty, let list = environment["FAILSCOPE_WEBHOOKS"] {
            webhooks = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let webhookSecret =
            arguments.option("webhook-secret")
            ?? environment["FAILSCOPE_WEBHOOK_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        for url in webhooks {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                !(parsed.host ?? "").isEmpty
            else { throw UsageError("--webhook must be an http or https URL, got \"\(RunsCommand.clean(url))\"") }
        }
        if !webhooks.isEmpty && webhookSecret == nil {
            throw UsageError("--webhook needs --webhook-secret or FAILSCOPE_WEBHOOK_SECRET (the signature's key)")
        }
        let publicURLOption = arguments.option("public-url") ?? environment["FAILSCOPE_PUBLIC_URL"]
        if let publicURLOption {
            guard let parsed = URL(string: publicURLOption),
                ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), !(parsed.host ?? "").isEmpty
            else {
                throw UsageError(
                    "--public-url must be an http or https URL, got \"\(RunsCommand.clean(publicURLOption))\"")
            }
        }
        try arguments.checkAllConsumed()

        let web: URL?
        do {
            web = try WebDirectoryLocator.locate(explicit: webOption)
        } catch {
            throw UsageError("--web: no folder at \(webOption ?? "")")
        }
        let listenHost = host.contains(":") ? "[\(host)]" : host
        let server: FailscopeServer
        do {
            server = try FailscopeServer(
                dataDirectory: data, database: database, host: host, port: port, threadCount: threads,
                connectionsPerAddress: connectionsPerAddress,
                configuration: ServiceConfiguration(
                    uploadTokens: uploadTokens, readToken: readToken, webDirectory: web,
                    webhooks: WebhookSettings(urls: webhooks, secret: webhookSecret, publicURL: publicURLOption))
            )
        } catch {
            throw CommandError(store: error, "cannot start: ")
        }
        let signals = server.installSignalHandlers { number in
            printError("failscope serve: signal \(number), finishing in-flight requests")
        }
        printError("failscope serve: listening on http://\(listenHost):\(server.port)")
        printError(
            "failscope serve: data \(data.standardizedFileURL.path), database "
                + "\(database ?? .sqlite(in: data.standardizedFileURL)), dashboard \(web?.path ?? "(none)")"
        )
        if server.application.store.isStorageFull {
            printError(
                "failscope serve: the disk holding \(data.standardizedFileURL.path) is full: uploads are refused "
                    + "(507 insufficient_storage) until space is freed; reads work")
        }
        let sweep = retentionDays.map { days in
            server.startRetentionSweep(keepDays: days) { printError("failscope serve: \($0)") }
        }
        if !webhooks.isEmpty {
            let links = WebhookSettings(publicURL: publicURLOption).publicURL ?? "http://\(listenHost):\(server.port)/"
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
