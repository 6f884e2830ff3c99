import FailscopeStore
import Foundation

/// `failscope gc`: retention — deletes old runs, then artifacts no result references, then vacuums.
enum GCCommand: Command {
    static let name = "gc"
    static let summary = "Delete runs older than N days and the artifacts nothing references any more."
    static let usage = """
        USAGE: failscope gc --keep-days <n> [--data <dir>] [--database <db>] [--artifacts <place>]
                            [--grace-minutes <n>]

        OPTIONS:
          --keep-days <n>         Keep runs that started within the last n days (1...36500).
          --data <dir>            Folder of the database and artifacts. (default: .failscope; env FAILSCOPE_DATA)
        \(Arguments.databaseHelp)
        \(Arguments.artifactsHelp)
          --grace-minutes <n>     Never delete an artifact stored less than n minutes ago (an upload whose result is
                                  on its way). (default: 60)

          Deletions run in one transaction; a busy database (a running service) makes gc wait up to 5 s
          for the lock and otherwise fail without changes. 'failscope serve --retention-days' sweeps in-process.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        guard arguments.option("keep-days") != nil else { throw UsageError("--keep-days is required") }
        let keepDays = try arguments.integer("keep-days", default: 0, in: 1...36_500)
        let data = try arguments.dataDirectory()
        let database = try arguments.database()
        let graceMinutes = try arguments.integer(
            "grace-minutes", default: Int(FailscopeStore.defaultArtifactGrace / 60), in: 0...525_600)
        let report: FailscopeStore.GarbageReport
        let started = Date()
        do {
            let artifacts = try arguments.artifactStorage(data: data, cache: false)
            try arguments.checkAllConsumed()
            let store = try FailscopeStore(directory: data, database: database, artifacts: artifacts)
            defer { store.close() }
            report = try store.collectGarbage(keepDays: keepDays, grace: Double(graceMinutes) * 60)
        } catch let error as UsageError {
            throw error
        } catch {
            throw CommandError(store: error)
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            """
            Deleted \(report.runsDeleted) runs, \(report.resultsDeleted) results, \(report.testsDeleted) tests, \
            \(report.artifactsDeleted) artifacts (\(report.artifactBytesFreed) bytes freed) in \
            \(String(format: "%.2f", seconds)) s.
            Database: \(report.databaseBytesBefore) bytes before, \(report.databaseBytesAfter) bytes after VACUUM.
            """)
        return 0
    }
}
