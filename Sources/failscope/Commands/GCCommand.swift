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
    static let graceMinutes = Option<Int>.integer(
        "grace-minutes", in: 0...525_600,
        help: "Never delete an artifact stored less than n minutes ago (an upload whose result is on its way).",
        default: Int(FailscopeStore.defaultArtifactGrace / 60))
    static let options: [any OptionDeclaration] = [
        keepDays, SharedOptions.data, SharedOptions.database, SharedOptions.artifacts, graceMinutes,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let keepDays = try arguments.required(Self.keepDays)
        let data = try arguments.dataDirectory()
        let database = try arguments.value(SharedOptions.database)
        let graceMinutes = try arguments.required(Self.graceMinutes)
        let artifacts = try arguments.artifactStorage(data: data, cache: false)
        let report: FailscopeStore.GarbageReport
        let started = Date()
        do {
            let store = try FailscopeStore(directory: data, database: database, artifacts: artifacts)
            defer { store.close() }
            report = try store.collectGarbage(keepDays: keepDays, grace: Double(graceMinutes) * 60)
        } catch {
            throw CommandError(store: error)
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            """
            Deleted \(report.runsDeleted) runs, \(report.resultsDeleted) results, \(report.testsDeleted) tests, \
            \(report.artifactsDeleted) artifacts (\(report.artifactBytesFreed) bytes freed) in \
            \(String(format: "%.2f", seconds)) s.
            Database: \(report.databaseBytesBefore) bytes before, \(report.databaseBytesAfter) bytes after.
            """)
        return 0
    }
}
