import FailscopeStore
import Foundation

/// `failscope copy`: moves an embedded (SQLite) store's history into PostgreSQL.
enum CopyCommand: Command {
    static let name = "copy"
    static let summary = "Copy an SQLite database's runs and results into a PostgreSQL database."
    static let discussion = """
        Migrates the target, carries runs, tests, results with their failures, trails, pages and artifact
        references (keeping their ids), then computes the flaky summaries there. Rows the target already
        has are left alone, so running it again after an interruption finishes the copy. Artifact files
        are not copied: keep the data folder's artifacts/ beside the new database. Progress on stderr.
        Exit 69 when either database cannot be reached.
        """

    static let from = SharedOptions.database.named(
        "from", help: "The SQLite database: a path or sqlite:PATH (e.g. sqlite:.failscope/failscope.sqlite).")
    static let to = SharedOptions.database.named(
        "to", help: "The PostgreSQL database, a libpq URI (the password from PGPASSWORD or ~/.pgpass).")
    static let options: [any OptionDeclaration] = [from, to]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let source = try arguments.required(Self.from)
        let target = try arguments.required(Self.to)
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
