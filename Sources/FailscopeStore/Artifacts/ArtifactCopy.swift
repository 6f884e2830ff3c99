import FailscopeModel
import Foundation

/// Carries every artifact of one ``ArtifactStorage`` into another (`failscope copy --artifacts-from DIR
/// --artifacts-to s3://…`: an embedded store's folder into the bucket its replicas will share).
public enum ArtifactCopy {
    /// What ``copy(from:to:progress:)`` did: artifacts written, already there, and refused (bytes that do not
    /// verify against their name as a PNG or as JSON, left where they are).
    public struct Report: Sendable, Equatable {
        public var copied = 0
        public var alreadyThere = 0
        public var refused = 0
        public var bytesCopied = 0
    }

    /// Copies each artifact `source` lists into `target`, verified again on the way (``ArtifactStore/verify(_:sha256:mediaType:)``:
    /// a screenshot, else an element tree). Safe to run again after an interruption: what the target has is
    /// skipped (its `put` checks first). `progress` gets (artifacts done, artifacts listed).
    ///
    /// - Throws: ``ArtifactStorageError`` or file system errors from either storage; what was copied stays copied.
    public static func copy(
        from source: any ArtifactStorage, to target: any ArtifactStorage, progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> Report {
        var report = Report()
        let listed = try source.list()
        for (index, artifact) in listed.enumerated() {
            defer { progress(index + 1, listed.count) }
            guard let file = try source.open(sha256: artifact.sha256),
                let data = FileManager.default.contents(atPath: file.path)
            else { continue }
            let bytes = [UInt8](data)
            guard
                let verified = (try? ArtifactStore.verify(bytes, sha256: artifact.sha256, mediaType: "image/png"))
                    ?? (try? ArtifactStore.verify(bytes, sha256: artifact.sha256, mediaType: "application/json"))
            else {
                report.refused += 1
                continue
            }
            if try target.put(bytes, verified: verified) {
                report.copied += 1
                report.bytesCopied += bytes.count
            } else {
                report.alreadyThere += 1
            }
        }
        return report
    }
}
