import FailscopeModel
import Foundation

/// The on-disk queue every result goes to before it is uploaded: nothing is lost when the
/// service is down or the process dies.
///
/// Layout (one folder a run, every file written atomically by `AtomicFile`):
/// ```
/// SPOOL/<runId>/run.json                  the Run (rewritten when it changes)
/// SPOOL/<runId>/results/<seq>-<key>.json  a ResultBatch a file, removed once the server has it
/// SPOOL/<runId>/artifacts/<sha256>.png    screenshots; .json for element trees
/// SPOOL/<runId>/finish.json               RunFinish, written when the bundle finished
/// ```
/// Several processes (`swift test --parallel`) may write the same run's folder at once: file
/// names never collide and uploads are idempotent.
public struct Spool: Sendable {
    /// A run waiting in the spool.
    public struct PendingRun: Sendable {
        public var run: Run
        public var folder: URL
        public var resultFiles: [URL]
        public var artifactFiles: [URL]
        public var finish: RunFinish?
    }

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    private func folder(of runID: String) -> URL {
        directory.appendingPathComponent(runID, isDirectory: true)
    }

    private func prepare(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes (or rewrites) a run's metadata.
    public func write(_ run: Run) throws {
        precondition(Run.isValidID(run.id), "invalid run id \(run.id)")
        let folder = folder(of: run.id)
        try prepare(folder)
        try AtomicFile.write(try WireCoding.encoder().encode(run), to: folder.appendingPathComponent("run.json"))
    }

    /// Appends results to a run as one batch file (one fsync however many results: the reporter
    /// groups the results that finish while the previous batch is being written); returns the file.
    @discardableResult
    public func write(_ results: [TestResult], runID: String) throws -> URL {
        let folder = folder(of: runID).appendingPathComponent("results", isDirectory: true)
        try prepare(folder)
        let sequence = String(UInt64(Date().timeIntervalSince1970 * 1_000_000), radix: 10)
        let key = SHA256.hex(of: Data(results.map(\.resultKey).joined(separator: "\n").utf8)).prefix(16)
        let url = folder.appendingPathComponent("\(sequence)-\(key).json")
        try AtomicFile.write(WireJSONWriter.encode(ResultBatch(results: results)), to: url)
        return url
    }

    /// Stores an artifact under its SHA-256 and returns its reference.
    public func writeArtifact(
        _ data: Data, kind: ArtifactRef.Kind, width: Int? = nil, height: Int? = nil, runID: String
    ) throws -> ArtifactRef {
        let folder = folder(of: runID).appendingPathComponent("artifacts", isDirectory: true)
        try prepare(folder)
        let sha256 = SHA256.hex(of: data)
        let url = folder.appendingPathComponent(sha256 + (kind == .screenshot ? ".png" : ".json"))
        if !FileManager.default.fileExists(atPath: url.path) {
            try AtomicFile.write(data, to: url)
        }
        return ArtifactRef(sha256: sha256, kind: kind, byteCount: data.count, width: width, height: height)
    }

    /// Records that the run finished.
    public func markFinished(runID: String, at date: Date) throws {
        let folder = folder(of: runID)
        try prepare(folder)
        try AtomicFile.write(
            try WireCoding.encoder().encode(RunFinish(finishedAt: date)),
            to: folder.appendingPathComponent("finish.json"))
    }

    /// Every run in the spool, oldest first, with its waiting files.
    /// - Throws: only when the spool folder exists but cannot be read; a run folder whose `run.json`
    ///   is unreadable is skipped (and reported in `problems`).
    public func pendingRuns() throws -> (runs: [PendingRun], problems: [String]) {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory.path) else { return ([], []) }
        var runs: [PendingRun] = []
        var problems: [String] = []
        for folder in try manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) {
            let runFile = folder.appendingPathComponent("run.json")
            guard manager.fileExists(atPath: runFile.path) else { continue }
            do {
                let run = try WireCoding.decoder().decode(Run.self, from: Data(contentsOf: runFile))
                let finishFile = folder.appendingPathComponent("finish.json")
                let finish = try? WireCoding.decoder().decode(RunFinish.self, from: Data(contentsOf: finishFile))
                runs.append(
                    PendingRun(
                        run: run, folder: folder, resultFiles: files(in: folder.appendingPathComponent("results")),
                        artifactFiles: files(in: folder.appendingPathComponent("artifacts")), finish: finish))
            } catch {
                problems.append("\(runFile.path): \(error)")
            }
        }
        return (runs.sorted { $0.run.startedAt < $1.run.startedAt }, problems)
    }

    private func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Removes a file the server acknowledged (missing files are fine: another process sent it).
    public func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
