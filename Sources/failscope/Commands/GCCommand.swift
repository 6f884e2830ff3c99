import FailscopeStore
import Foundation

/// `failscope gc`: retention — deletes old runs, then artifacts no result references, then vacuums.
enum GCCommand: Command {
    static let name = "gc"
    static let summary = "Delete runs older than N days and the artifacts nothing references any more."
    static let discussion = """
        Old runs are deleted 200 at a time, each batch in its own transaction with its flaky summaries
        computed again; on SQLite a busy database (a running service) makes gc wait up to 5 s for the lock
        and otherwise fail without changes to that batch. 'failscope serve --retention-days' sweeps
        in-process.
        """

    static let keepDays = Option<Int>.integer(
        "keep-days", in: 1...36_500, help: "Keep runs that started within the last n days.", required: true)
    static let options: [any OptionDeclaration] = [keepDays, SharedOptions.data, SharedOptions.database]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let keepDays = try arguments.required(Self.keepDays)
        let data = try arguments.dataDirectory()
        let database = try arguments.value(SharedOptions.database)
        let report: FailscopeStore.GarbageReport
        do {
            let store = try FailscopeStore(directory: data, database: database)
            defer { store.close() }
            report = try store.collectGarbage(keepDays: keepDays)
        } catch {
            throw CommandError(store: error)
        }
        print(
            """
            Deleted \(report.runsDeleted) runs, \(report.resultsDeleted) results, \(report.testsDeleted) tests, \
            \(report.artifactsDeleted) artifacts (\(report.artifactBytesFreed) bytes).
            Database: \(report.databaseBytesBefore) bytes before, \(report.databaseBytesAfter) bytes after.
            """)
        return 0
    }
}
