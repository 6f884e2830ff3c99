import FailscopeModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One process's folder of a run in the spool (see `Spool` for the layout): what it holds, and the
/// lock that tells whether its process still lives.
public struct WriterFolder: Sendable, Equatable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// Writer folders are named `w-<pid>-<random>`.
    static func isWriterName(_ name: String) -> Bool { name.hasPrefix("w-") }

    /// Whether `folder` itself holds spool files (a run folder of the older, one-folder layout).
    static func holdsFiles(_ folder: URL) -> Bool {
        WriterFolder(url: folder).entries.contains { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// What the spool keeps in a writer folder (its lock apart).
    var entries: [URL] { [runFile, resultsFolder, artifactsFolder, finishFile, journalFile] }

    var lockFile: URL { url.appendingPathComponent("lock") }
    var runFile: URL { url.appendingPathComponent("run.json") }
    var finishFile: URL { url.appendingPathComponent("finish.json") }
    var resultsFolder: URL { url.appendingPathComponent("results", isDirectory: true) }
    var artifactsFolder: URL { url.appendingPathComponent("artifacts", isDirectory: true) }
    var journalFile: URL { url.appendingPathComponent("journal") }

    /// The run as this folder's process saw it, if its `run.json` is readable.
    public func run() throws -> Run? {
        guard let data = try? Data(contentsOf: runFile) else { return nil }
        return try WireCoding.decoder().decode(Run.self, from: data)
    }

    /// When this folder's process said its tests ended, if it did.
    public func finish() -> RunFinish? {
        try? WireCoding.decoder().decode(RunFinish.self, from: Data(contentsOf: finishFile))
    }

    public var resultFiles: [URL] { Self.files(in: resultsFolder) }
    public var artifactFiles: [URL] { Self.files(in: artifactsFolder) }

    /// Files still to send (results and artifacts).
    public var remainingFileCount: Int { resultFiles.count + artifactFiles.count }

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The newest modification time of the folder's files: when its process was last seen working.
    var lastWritten: Date? {
        ([runFile, journalFile] + resultFiles + artifactFiles).compactMap {
            (try? FileManager.default.attributesOfItem(atPath: $0.path))?[.modificationDate] as? Date
        }.max()
    }

    /// When the folder's entries last changed (its own time, for a folder without files).
    var folderChanged: Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    // MARK: Claiming a folder whose process has ended

    /// An exclusive `flock(2)` on a writer folder's lock file: held by the writing process for its
    /// whole life (the kernel releases it when the process ends, however it ends), and taken by a
    /// deliverer only when that process is gone.
    public final class Claim: @unchecked Sendable {
        let descriptor: Int32

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }
    }

    /// Takes the folder's lock without waiting. `nil`: a live process holds it, or the folder has no
    /// lock file (a writer folder always has one: it is made under a hidden name with its lock held and
    /// renamed into place), or went away. `creatingLock` makes the lock file of a folder of the older
    /// layout, which had none. The lock file is checked to be still the one locked (a writer may have
    /// replaced it).
    public func claim(creatingLock: Bool = false) -> Claim? {
        let descriptor = open(lockFile.path, O_RDWR | O_CLOEXEC | (creatingLock ? O_CREAT : 0), 0o644)
        guard descriptor >= 0 else { return nil }
        let claim = Claim(descriptor: descriptor)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        var locked = stat()
        var current = stat()
        guard fstat(descriptor, &locked) == 0, stat(lockFile.path, &current) == 0, locked.st_ino == current.st_ino
        else { return nil }
        return claim
    }

    // MARK: Tests that started and never ended

    /// Replays the folder's journal (`TestJournal`) into a result batch file: each test that ended
    /// but whose result is in no batch file yet, and each test that started and never ended as an
    /// `error` result saying that the process crashed. Then the journal goes. Call only while
    /// holding the folder's claim (its process has ended). Returns the number of crashed tests.
    /// - Throws: when the batch file cannot be written (the journal then stays).
    public func recoverJournal() throws -> Int {
        guard let journal = try? Data(contentsOf: journalFile), !journal.isEmpty else { return 0 }
        var stored = Set<String>()
        for file in resultFiles {
            guard let data = try? Data(contentsOf: file),
                let batch = try? WireCoding.decoder().decode(ResultBatch.self, from: data)
            else { continue }
            for result in batch.results { stored.insert(TestJournal.key(of: result)) }
        }
        let (ended, crashed) = TestJournal.results(in: journal, excluding: stored)
        if !ended.isEmpty || !crashed.isEmpty {
            try ResultBatchFile.write(WireJSONWriter.encode(ResultBatch(results: ended + crashed)), in: resultsFolder)
        }
        try? FileManager.default.removeItem(at: journalFile)
        return crashed.count
    }

    /// Removes the folder and everything in it: first renamed out of sight (atomically), so no other
    /// process ever sees it half removed (and recreates its lock file in it).
    func remove() {
        let gone = url.deletingLastPathComponent().appendingPathComponent(
            "." + url.lastPathComponent + Self.removedSuffix + UUID().uuidString.prefix(8))
        guard rename(url.path, gone.path) == 0 else { return }
        try? FileManager.default.removeItem(at: gone)
    }

    /// The name a folder being removed has (hidden, so no listing shows it).
    static let removedSuffix = ".removed-"
}

/// Result batch files: `<microseconds>-<hash of the content>.json`, written atomically.
enum ResultBatchFile {
    @discardableResult
    static func write(_ batch: Data, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sequence = String(UInt64(Date().timeIntervalSince1970 * 1_000_000), radix: 10)
        let url = folder.appendingPathComponent("\(sequence)-\(SHA256.hex(of: batch).prefix(16)).json")
        try AtomicFile.write(batch, to: url)
        return url
    }
}
