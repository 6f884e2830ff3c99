import FailscopeClient
import FailscopeStore
import Foundation

/// Where a command that only reads (`flaky`, `slowest`) finds its answers: a Failscope service (`--url`,
/// `--token`), or with `--data` (or without a service URL) the data folder's store, opened read-only.
/// Its options are declared here once, for every such command.
enum ReadSource {
    case service(APIClient)
    case store(directory: URL, database: DatabaseLocation?)

    static let url = SharedOptions.url.help("Ask this Failscope service.")
    static let data = SharedOptions.data.help("Read this data folder directly, read-only.")
    static let database = SharedOptions.database.help(
        "With --data: its database, a path, sqlite:PATH or postgres://… (a URI without a password).")
    /// The options, in the order help lists them.
    static let options: [any OptionDeclaration] = [url, SharedOptions.readToken, data, database]
}

extension Arguments {
    /// The source the options say: `--data` reads the folder whatever `FAILSCOPE_URL` says.
    /// - Throws: `UsageError` when both `--url` and `--data` are given, or a value is malformed.
    func readSource() throws -> ReadSource {
        let fromData = isGiven(ReadSource.data)
        if fromData && isGiven(ReadSource.url) { throw UsageError("--url and --data exclude each other") }
        let token = try value(SharedOptions.readToken)
        if !fromData, let url = try value(ReadSource.url) {
            return .service(APIClient(baseURL: url, token: token))
        }
        return .store(directory: try dataDirectory(), database: try value(ReadSource.database))
    }
}
