import FailscopeStore
import Foundation

/// `failscope copy`: moves an embedded (SQLite) store's history into PostgreSQL.
enum CopyCommand: Command {
    static let name = "copy"
    static let summary = "Copy an SQLite database's runs and results into a PostgreSQL database."
    static let discussion = """
        Migrates the target, carries runs, tests, results with their failures, trails, pages and artifact
        references (keeping their ids), the quarantine with its audit log, and the webhooks with their
        deliveries and announced test states, a few thousand rows a transaction (stop the SQLite service
        first: what it writes afterwards stays behind), then computes the flaky summaries
        there, a group of tests at a time. Rows the target already has are left alone, so running it again
        after an interruption finishes the copy. Artifact files are copied only with --artifacts-from and
        --artifacts-to. Progress on stderr (a bar on a terminal, a line per tenth otherwise).
        Exit 69 when either database cannot be reached.
        With --artifacts-from and --artifacts-to (alone, or with --from and --to) it copies artifacts
        between a folder and object storage: each is verified again and written only when the target does
        not have it, so running it again finishes an interrupted copy; exit 69 when a storage does not
        answer.
        """

    static let from = optional(
        SharedOptions.database.named(
            "from", help: "The SQLite database: a path or sqlite:PATH (e.g. sqlite:.failscope/failscope.sqlite)."))
    static let to = optional(
        SharedOptions.database.named(
            "to", help: "The PostgreSQL database, a libpq URI (the password from PGPASSWORD or ~/.pgpass)."))

    /// `option`, not required: a copy of only the artifacts needs no database.
    private static func optional(_ option: Option<DatabaseLocation>) -> Option<DatabaseLocation> {
        var option = option
        option.isRequired = false
        return option
    }
    static let artifactsFrom = Option<String>(
        "artifacts-from", value: "src",
        help: "Artifacts to copy: a folder (e.g. .failscope/artifacts) or s3://BUCKET[/PREFIX].")
    static let artifactsTo = Option<String>(
        "artifacts-to", value: "dst",
        help: "Where to copy them: a folder or s3://BUCKET[/PREFIX] (the AWS variables as for serve --artifacts).")
    static let options: [any OptionDeclaration] = [
        from, to, artifactsFrom, artifactsTo,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let artifactsFrom = try arguments.value(Self.artifactsFrom)
        let artifactsTo = try arguments.value(Self.artifactsTo)
        guard (artifactsFrom == nil) == (artifactsTo == nil) else {
            throw UsageError("--artifacts-from and --artifacts-to go together")
        }
        let source = try arguments.value(Self.from)
        let target = try arguments.value(Self.to)
        guard (source == nil) == (target == nil), source != nil || artifactsFrom != nil else {
            throw UsageError("--from and --to are required (or --artifacts-from and --artifacts-to)")
        }
        if let artifactsFrom, let artifactsTo {
            let from = try Arguments.artifactStorage(artifactsFrom, option: "--artifacts-from", cacheDirectory: nil)
            let to = try Arguments.artifactStorage(artifactsTo, option: "--artifacts-to", cacheDirectory: nil)
            do {
                let report = try ArtifactCopy.copy(from: from, to: to) { done, total in
                    if done % 500 == 0 || done == total { printError("copy: artifacts \(done)/\(total)") }
                }
                print(
                    "artifacts: \(report.copied) copied (\(report.bytesCopied) bytes), \(report.alreadyThere) already "
                        + "there, \(report.refused) refused")
            } catch {
                throw CommandError(store: error)
            }
        }
        guard let source, let target else { return 0 }
        let report: FailscopeStore.CopyReport
        var progress = ProgressLine(prefix: "copy: ")
        do {
            report = try FailscopeStore.copy(from: source, to: target) { table, done, total in
                progress.update(table, done: done, total: total)
            }
        } catch {
            progress.finishLine()
            throw CommandError(store: error)
        }
        for table in FailscopeStore.copiedTableNames {
            print("\(table): \(report.rowsStored[table] ?? 0) copied, \(report.rowsRead[table] ?? 0) read")
        }
        return 0
    }
}
