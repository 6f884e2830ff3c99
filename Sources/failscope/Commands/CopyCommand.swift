import FailscopeStore
import Foundation

/// `failscope copy`: moves an embedded (SQLite) store's history into PostgreSQL.
enum CopyCommand: Command {
    static let name = "copy"
    static let summary = "Copy an SQLite database's runs and results into a PostgreSQL database."
    static let usage = """
        USAGE: failscope copy --from <sqlite:path> --to <postgres://…>
               failscope copy --artifacts-from <dir> --artifacts-to <s3://bucket/prefix>

        OPTIONS:
          --from <db>             The SQLite database: a path or sqlite:PATH (e.g. sqlite:.failscope/failscope.sqlite).
          --to <db>               The PostgreSQL database, a libpq URI (the password from PGPASSWORD or ~/.pgpass).

          Migrates the target, carries runs, tests, results with their failures, trails, pages and artifact
          references (keeping their ids), then computes the flaky summaries there. Rows the target already
          has are left alone, so running it again after an interruption finishes the copy. Artifact files
          are not copied: keep the data folder's artifacts/ beside the new database. Progress on stderr.
          Exit 69 when either database cannot be reached.
          --artifacts-from <place> The artifacts to copy: a folder (e.g. .failscope/artifacts) or s3://BUCKET[/PREFIX].
          --artifacts-to <place>  Where to copy them: a folder or s3://BUCKET[/PREFIX] (the AWS variables as for
                                  'serve --artifacts'). Each artifact is verified again and written only when the
                                  target does not have it, so running it again finishes an interrupted copy.
                                  Give both pairs to move a whole data folder; exit 69 when a storage does not answer.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let artifactsFrom = arguments.option("artifacts-from")
        let artifactsTo = arguments.option("artifacts-to")
        guard (artifactsFrom == nil) == (artifactsTo == nil) else {
            throw UsageError("--artifacts-from and --artifacts-to go together")
        }
        let from = arguments.option("from")
        let to = arguments.option("to")
        guard (from == nil) == (to == nil), from != nil || artifactsFrom != nil else {
            throw UsageError("--from and --to are required (or --artifacts-from and --artifacts-to)")
        }
        try arguments.checkAllConsumed()
        if let artifactsFrom, let artifactsTo {
            let source = try Arguments.artifactStorage(artifactsFrom, option: "--artifacts-from", cacheDirectory: nil)
            let target = try Arguments.artifactStorage(artifactsTo, option: "--artifacts-to", cacheDirectory: nil)
            do {
                let report = try ArtifactCopy.copy(from: source, to: target) { done, total in
                    if done % 500 == 0 || done == total { printError("copy: artifacts \(done)/\(total)") }
                }
                print(
                    "artifacts: \(report.copied) copied (\(report.bytesCopied) bytes), \(report.alreadyThere) already "
                        + "there, \(report.refused) refused")
            } catch {
                throw CommandError(store: error)
            }
        }
        guard let from, let to else { return 0 }
        let source: DatabaseLocation
        let target: DatabaseLocation
        do {
            source = try DatabaseLocation(parsing: from)
            target = try DatabaseLocation(parsing: to)
        } catch {
            throw UsageError(error.description)
        }
        let report: FailscopeStore.CopyReport
        do {
            report = try FailscopeStore.copy(from: source, to: target) { table, done, total in
                printError("copy: \(table) \(done)/\(total)")
            }
        } catch {
            throw CommandError(store: error)
        }
        for table in FailscopeStore.copiedTableNames {
            print("\(table): \(report.rowsStored[table] ?? 0) copied, \(report.rowsRead[table] ?? 0) read")
        }
        return 0
    }
}
