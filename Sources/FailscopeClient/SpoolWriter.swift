import FailscopeModel
import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// One process's writer of one run in the spool: its own folder (`SPOOL/<runId>/w-<pid>-<random>`),
/// locked for the life of the process, so that no other process writes, delivers or removes it while
/// this one may still write (see `Spool` for the layout).
///
/// The folder is made at the first write; once delivered and removed (`removeDelivered()`), the next
/// write makes it again. Thread-safe.
public final class SpoolWriter: @unchecked Sendable {
    public let spool: Spool
    public let runID: String
    /// This writer's folder.
    public let folder: WriterFolder
    private let lock = NSLock()
    private var lockDescriptor: Int32 = -1
    /// Whether the folder is there (made, and not removed since by `removeDelivered()`: no other
    /// process removes a folder whose lock is held).
    private var prepared = false
    private var journalDescriptor: Int32 = -1
    /// Tests started and not ended, and ended tests whose result is in no batch file yet: while both
    /// are zero the journal holds nothing a recovery would need, and it is emptied.
    private var testsInFlight = 0
    private var resultsOutsideBatches = 0

    /// The suffix of the hidden name a folder is made under before it is renamed into place.
    static let stagingSuffix = ".new"

    public init(spool: Spool, runID: String) {
        precondition(Run.isValidID(runID), "invalid run id \(runID)")
        self.spool = spool
        self.runID = runID
        let name = "w-\(getpid())-" + UUID().uuidString.lowercased().prefix(8)
        folder = WriterFolder(url: spool.folder(of: runID).appendingPathComponent(name, isDirectory: true))
    }

    deinit {
        if journalDescriptor >= 0 { close(journalDescriptor) }
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    /// The journal's file descriptor (`O_APPEND`), or -1 before the first test started: what a crash
    /// handler writes the signal to.
    public var journalFileDescriptor: Int32 { lock.withLock { journalDescriptor } }

    /// Makes the folder, takes its lock and opens its journal, unless done. Caller holds `lock`.
    ///
    /// The folder is prepared under a hidden name and renamed into place with its lock already held,
    /// so no deliverer ever sees it unlocked.
    private func prepare() throws {
        if prepared { return }
        let staging = spool.folder(of: runID).appendingPathComponent(
            "." + folder.url.lastPathComponent + Self.stagingSuffix, isDirectory: true)
        // Another process may remove the run's (empty) folder between its creation and ours: retry.
        var attempts = 0
        while true {
            do {
                try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
                break
            } catch  where attempts < 3 {
                attempts += 1
            }
        }
        func fail(_ descriptors: Int32...) -> POSIXError {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
            try? FileManager.default.removeItem(at: staging)
            return error
        }
        let newLock = open(staging.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard newLock >= 0, flock(newLock, LOCK_EX | LOCK_NB) == 0 else { throw fail(newLock) }
        let newJournal = open(
            staging.appendingPathComponent("journal").path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard newJournal >= 0 else { throw fail(newLock) }
        guard rename(staging.path, folder.url.path) == 0 else { throw fail(newLock, newJournal) }
        if lockDescriptor >= 0 { close(lockDescriptor) }
        lockDescriptor = newLock
        prepared = true
        if journalDescriptor >= 0 {
            // Keep the number a crash handler already holds: point it at the new journal.
            dup2(newJournal, journalDescriptor)
            close(newJournal)
        } else {
            journalDescriptor = newJournal
        }
    }

    /// Writes (or rewrites) the run's metadata as this process knows it.
    public func write(_ run: Run) throws {
        precondition(run.id == runID, "run \(run.id) written by the writer of \(runID)")
        try lock.withLock {
            try prepare()
            try AtomicFile.write(try WireCoding.encoder().encode(run), to: folder.runFile)
        }
    }

    // MARK: The journal

    /// Records that a test started (`result` holds its suite, name, arguments, attempt and start).
    public func testStarted(_ result: TestResult) throws {
        try lock.withLock {
            try prepare()
            testsInFlight += 1
            append(TestJournal.started(result))
        }
    }

    /// Records a page-object call of the test that started last.
    public func pageStep(_ step: TrailStep) {
        lock.withLock {
            guard journalDescriptor >= 0 else { return }
            append(TestJournal.step(step))
        }
    }

    /// Records that a test ended with `result`, which still has to reach a batch file: returns it
    /// encoded (`WireJSONWriter.encode(_:)`), for `write(encodedResults:)`.
    public func testEnded(_ result: TestResult) -> Data {
        let encoded = WireJSONWriter.encode(result)
        lock.withLock {
            testsInFlight = max(0, testsInFlight - 1)
            resultsOutsideBatches += 1
            guard journalDescriptor >= 0 else { return }
            append(TestJournal.ended(encoded))
        }
        return encoded
    }

    /// One `write(2)` (the descriptor is `O_APPEND`); a failure only costs the crash record.
    private func append(_ line: Data) {
        line.withUnsafeBytes { buffer in
            _ = systemWrite(journalDescriptor, buffer.baseAddress!, buffer.count)
        }
    }

    // MARK: Results, artifacts, the end

    /// Writes results as one batch file (one fsync however many results); returns the file.
    @discardableResult
    public func write(_ results: [TestResult]) throws -> URL {
        try write(encodedResults: results.map(WireJSONWriter.encode))
    }

    /// Writes results encoded by `testEnded(_:)` as one batch file; returns the file.
    @discardableResult
    public func write(encodedResults results: [Data]) throws -> URL {
        try lock.withLock {
            try prepare()
            let url = try ResultBatchFile.write(
                WireJSONWriter.encodeBatch(ofEncoded: results), in: folder.resultsFolder)
            resultsOutsideBatches = max(0, resultsOutsideBatches - results.count)
            if testsInFlight == 0 && resultsOutsideBatches == 0 && journalDescriptor >= 0 {
                ftruncate(journalDescriptor, 0)
            }
            return url
        }
    }

    /// Stores an artifact under its SHA-256 and returns its reference.
    public func writeArtifact(_ data: Data, kind: ArtifactRef.Kind, width: Int? = nil, height: Int? = nil) throws
        -> ArtifactRef
    {
        let sha256 = SHA256.hex(of: data)
        try lock.withLock {
            try prepare()
            try FileManager.default.createDirectory(at: folder.artifactsFolder, withIntermediateDirectories: true)
            let url = folder.artifactsFolder.appendingPathComponent(sha256 + (kind == .screenshot ? ".png" : ".json"))
            if !FileManager.default.fileExists(atPath: url.path) { try AtomicFile.write(data, to: url) }
        }
        return ArtifactRef(sha256: sha256, kind: kind, byteCount: data.count, width: width, height: height)
    }

    /// Records that this process's tests ended at `date`.
    public func markFinished(at date: Date) throws {
        try lock.withLock {
            try prepare()
            try AtomicFile.write(
                try WireCoding.encoder().encode(RunFinish(finishedAt: date)), to: folder.finishFile)
        }
    }

    /// Removes the folder once the service acknowledged everything in it; a later write makes it again.
    public func removeDelivered() {
        lock.withLock {
            folder.remove()
            prepared = false
            spool.removeIfEmpty(runID: runID)
        }
    }
}
