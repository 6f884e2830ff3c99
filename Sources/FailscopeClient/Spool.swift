import FailscopeModel
import Foundation

/// The on-disk queue every result goes to before it is uploaded: nothing is lost when the
/// service is down or a process dies.
///
/// Layout: one folder a run, and in it one folder a writing process, so that processes of one run
/// (`swift test --parallel` starts one a test) never remove or rewrite each other's files:
/// ```
/// SPOOL/<runId>/<writerId>/lock                    flock(2)ed by the writing process while it lives
/// SPOOL/<runId>/<writerId>/run.json                the Run as that process saw it (its start)
/// SPOOL/<runId>/<writerId>/journal               a line a test event: started, page step, ended, signal
/// SPOOL/<runId>/<writerId>/results/<seq>-<key>.json  a ResultBatch a file, removed once the server has it
/// SPOOL/<runId>/<writerId>/artifacts/<sha256>.png  screenshots; .json for element trees
/// SPOOL/<runId>/<writerId>/finish.json             RunFinish, written when the process's tests ended
/// SPOOL/<runId>/unreachable                        a process of the run found the service down (its time)
/// ```
/// A writer folder is written by its process (`SpoolWriter`) and delivered by it, or, once that
/// process has ended (its lock is free), by any other process of the run or `failscope upload`
/// (`Uploader`), which first replays its journal (`TestJournal`): a test that ended but whose
/// result is in no batch file yet gets its batch, and one that started and never ended (the process
/// crashed) becomes an `error` result.
/// Files of an older layout (`run.json`, `results/` directly in the run's folder) are delivered too.
public struct Spool: Sendable {
    /// The spool's folder when neither `FAILSCOPE_SPOOL` nor `--spool` says otherwise, relative to the
    /// working directory: the reporter, `failscope test`, `import` and `upload` all meet there.
    public static let defaultPath = ".failscope/spool"

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// A run waiting in the spool: every folder of it that holds files.
    public struct PendingRun: Sendable {
        public var runID: String
        public var folder: URL
        public var writers: [WriterFolder]
    }

    /// The folder of run `runID`.
    public func folder(of runID: String) -> URL {
        directory.appendingPathComponent(runID, isDirectory: true)
    }

    /// Every run in the spool (or only `runID`), in name order.
    /// - Throws: only when the spool folder exists but cannot be read.
    public func pendingRuns(runID: String? = nil) throws -> [PendingRun] {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory.path) else { return [] }
        let names = try runID.map { [$0] } ?? manager.contentsOfDirectory(atPath: directory.path).sorted()
        return names.filter { !$0.hasPrefix(".") && Run.isValidID($0) }.compactMap { name in
            let folder = folder(of: name)
            var writers = Self.subfolders(of: folder).map(WriterFolder.init(url:))
            if WriterFolder.holdsFiles(folder) { writers.append(WriterFolder(url: folder)) }  // the older layout
            return writers.isEmpty ? nil : PendingRun(runID: name, folder: folder, writers: writers)
        }
    }

    private static func subfolders(of folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") && WriterFolder.isWriterName($0) }.map {
            folder.appendingPathComponent($0, isDirectory: true)
        }
    }

    /// Every result waiting in the batch files of run `runID` (unreadable files are skipped).
    public func results(ofRun runID: String) throws -> [TestResult] {
        try pendingRuns(runID: runID).flatMap(\.writers).flatMap(\.resultFiles).flatMap { file in
            (try? WireCoding.decoder().decode(ResultBatch.self, from: Data(contentsOf: file)).results) ?? []
        }
    }

    // MARK: The unreachable mark

    private func unreachableMark(of runID: String) -> URL {
        folder(of: runID).appendingPathComponent("unreachable")
    }

    /// When a process of run `runID` last found the service unreachable, if one did.
    public func unreachableSince(runID: String) -> Date? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: unreachableMark(of: runID).path)
        return attributes?[.modificationDate] as? Date
    }

    /// Marks run `runID` unreachable unless a process of the run did: `true` when this call made the
    /// mark (its process goes on retrying; the others, finding the mark, give up at once).
    public func claimUnreachableMark(runID: String) -> Bool {
        try? FileManager.default.createDirectory(at: folder(of: runID), withIntermediateDirectories: true)
        let descriptor = open(unreachableMark(of: runID).path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Records that the service could not be reached for run `runID` (or clears the mark), so that
    /// the run's other processes keep their results in the spool without waiting out the retries.
    public func markUnreachable(runID: String, _ unreachable: Bool) {
        let url = unreachableMark(of: runID)
        if unreachable {
            try? FileManager.default.createDirectory(at: folder(of: runID), withIntermediateDirectories: true)
            try? Data().write(to: url)
        } else {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Removes run `runID`'s folder if nothing but the unreachable mark is left in it (a writer that
    /// is creating its folder at the same moment gets its folder back: `SpoolWriter` retries), and
    /// what a process that died while removing a folder of it left.
    public func removeIfEmpty(runID: String) {
        let folder = folder(of: runID)
        var names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? ["?"]
        // Folders being removed, and folders a process died making (`.w-<pid>-<random>.new` of a pid that
        // no longer runs: its lock cannot tell, a process making one takes the lock only after making it).
        let leftovers = names.filter { name in
            guard name.hasPrefix(".") else { return false }
            if name.contains(WriterFolder.removedSuffix) { return true }
            guard name.hasSuffix(SpoolWriter.stagingSuffix),
                let pid = name.split(separator: "-").dropFirst().first.flatMap({ Int32($0) })
            else { return false }
            return kill(pid, 0) != 0 && errno == ESRCH
        }
        for name in leftovers { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        names.removeAll { leftovers.contains($0) }
        guard names.allSatisfy({ $0 == "unreachable" }) else { return }
        try? FileManager.default.removeItem(at: unreachableMark(of: runID))
        rmdir(folder.path)
    }
}
