import FailscopeModel
import Foundation
import PNGCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The content-addressed folder, the default ``ArtifactStorage``: artifact files named by their SHA-256 under
/// `root` (`DIR/artifacts`, or `--artifacts DIR`): `ab/cd/<sha256>` where `ab` and `cd` are the first two and
/// next two hex digits.
///
/// The store verifies (``verify(_:sha256:mediaType:)``) the bytes before anything is stored (hash matches the name; a PNG's header is
/// sane; JSON parses) and writes atomically: a temporary file in `root/tmp`, `fsync`, `rename`,
/// then `fsync` of the directory, so a crash leaves either no file or the whole file. Identical
/// uploads are stored once. Paths are built only from validated hex digests.
public struct ArtifactStore: ArtifactStorage {
    /// The folder holding the fan-out folders and `tmp/`.
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public var location: String { root.path }

    /// What `put` found in the bytes.
    public struct Verified: Sendable, Hashable {
        public var sha256: String
        public var kind: ArtifactRef.Kind
        public var byteCount: Int
        public var width: Int?
        public var height: Int?
    }

    /// Checks `bytes` against their claimed `sha256` and media type without storing them.
    ///
    /// - Parameter mediaType: `image/png` or `application/json` (parameters such as `; charset=` ignored).
    /// - Throws: `StoreError.invalid` for a malformed hash or unsupported type,
    ///   `StoreError.artifactRejected` when the bytes do not match.
    public static func verify(_ bytes: [UInt8], sha256: String, mediaType: String) throws(StoreError) -> Verified {
        guard SHA256.isValidHex(sha256) else {
            throw .invalid("an artifact is named by 64 lowercase hexadecimal digits (SHA-256)")
        }
        let type = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let kind: ArtifactRef.Kind
        switch type {
        case "image/png": kind = .screenshot
        case "application/json": kind = .elementTree
        default: throw .invalid("Content-Type must be image/png or application/json")
        }
        guard !bytes.isEmpty else { throw .artifactRejected("the artifact is empty") }
        let actual = SHA256.hex(of: bytes)
        guard actual == sha256 else {
            throw .artifactRejected("the bytes' SHA-256 is \(actual), not the \(sha256) in the URL")
        }
        switch kind {
        case .screenshot:
            let header: PNGHeader
            do {
                header = try PNGDecoder().validate(Data(bytes))
            } catch {
                throw .artifactRejected(error.description)
            }
            guard bytes.suffix(PNGDecoder.endChunk.count).elementsEqual(PNGDecoder.endChunk) else {
                throw .artifactRejected("the PNG does not end with an IEND chunk (truncated upload?)")
            }
            return Verified(
                sha256: sha256, kind: kind, byteCount: bytes.count, width: header.width, height: header.height)
        case .elementTree:
            guard (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil else {
                throw .artifactRejected("the element tree is not valid JSON")
            }
            return Verified(sha256: sha256, kind: kind, byteCount: bytes.count, width: nil, height: nil)
        }
    }

    /// The file of a (validated) digest.
    public func fileURL(sha256: String) -> URL {
        precondition(SHA256.isValidHex(sha256), "artifact paths are built from validated digests only")
        let utf8 = Array(sha256.utf8)
        let first = String(decoding: utf8[0..<2], as: UTF8.self)
        let second = String(decoding: utf8[2..<4], as: UTF8.self)
        return root.appendingPathComponent(first).appendingPathComponent(second).appendingPathComponent(sha256)
    }

    /// Whether the file of `sha256` exists (`false` for a malformed digest).
    public func contains(sha256: String) -> Bool {
        guard SHA256.isValidHex(sha256) else { return false }
        return FileManager.default.fileExists(atPath: fileURL(sha256: sha256).path)
    }

    /// The bytes of `sha256`, or `nil` when absent or malformed.
    public func read(sha256: String) -> [UInt8]? {
        guard SHA256.isValidHex(sha256), let data = FileManager.default.contents(atPath: fileURL(sha256: sha256).path)
        else { return nil }
        return [UInt8](data)
    }

    /// Writes already verified bytes atomically; returns `false` when the file was already there.
    ///
    /// - Throws: `CocoaError`/POSIX errors from the file system.
    @discardableResult
    public func put(_ bytes: [UInt8], verified: Verified) throws -> Bool {
        let destination = fileURL(sha256: verified.sha256)
        if FileManager.default.fileExists(atPath: destination.path) { return false }
        let folder = destination.deletingLastPathComponent()
        let temporaryFolder = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        let temporary = temporaryFolder.appendingPathComponent("\(verified.sha256).\(UUID().uuidString)")
        try Self.writeSynced(bytes, to: temporary.path)
        var renamed = rename(temporary.path, destination.path) == 0
        if !renamed && errno == ENOENT {
            // `remove` (garbage collection) took the folder away while it was empty: make it again, once.
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            renamed = rename(temporary.path, destination.path) == 0
        }
        guard renamed else {
            let code = errno
            unlink(temporary.path)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        Self.syncDirectory(folder.path)
        return true
    }

    /// Removes the file of `sha256` if present, and its two folders when that left them empty (`rmdir`
    /// removes only empty folders; a concurrent `write` makes its folder again).
    public func remove(sha256: String) {
        guard SHA256.isValidHex(sha256) else { return }
        let file = fileURL(sha256: sha256)
        unlink(file.path)
        let folder = file.deletingLastPathComponent()
        if rmdir(folder.path) == 0 { rmdir(folder.deletingLastPathComponent().path) }
    }

    /// The file of `sha256` and its size, or `nil` when absent or malformed.
    public func open(sha256: String) -> ArtifactFile? {
        guard SHA256.isValidHex(sha256) else { return nil }
        let path = fileURL(sha256: sha256).path
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return ArtifactFile(path: path, byteCount: Int(info.st_size))
    }

    /// Every file under `root` with its size and modification time.
    public func list() -> [StoredArtifact] {
        storedDigests().digests.compactMap { sha256 in
            var info = stat()
            guard stat(fileURL(sha256: sha256).path, &info) == 0 else { return nil }
            let modified = Date(
                timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
            return StoredArtifact(sha256: sha256, byteCount: Int(info.st_size), lastModified: modified)
        }
    }

    /// Removes temporary files (`root/tmp`) last modified before `date`: writes a crash interrupted.
    public func removeLeftovers(before date: Date) {
        for temporary in storedDigests().temporaries {
            let modified = (try? FileManager.default.attributesOfItem(atPath: temporary.path))?[.modificationDate]
            guard (modified as? Date ?? .distantPast) < date else { continue }
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    /// The folder answers when `root` exists and is a folder.
    ///
    /// - Throws: ``ArtifactStorageError/unavailable(_:)`` when it is gone.
    public func checkHealth() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ArtifactStorageError.unavailable("the artifact folder \(root.path) does not exist")
        }
    }

    /// Every digest with a file under `root` (for garbage collection), and leftover temporary files.
    public func storedDigests() -> (digests: [String], temporaries: [URL]) {
        var digests: [String] = []
        let manager = FileManager.default
        for first in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where first.count == 2 {
            let firstURL = root.appendingPathComponent(first)
            for second in (try? manager.contentsOfDirectory(atPath: firstURL.path)) ?? [] where second.count == 2 {
                let names =
                    (try? manager.contentsOfDirectory(atPath: firstURL.appendingPathComponent(second).path)) ?? []
                digests += names.filter { SHA256.isValidHex($0) && $0.hasPrefix(first + second) }
            }
        }
        let temporaryFolder = root.appendingPathComponent("tmp")
        let temporaries = ((try? manager.contentsOfDirectory(atPath: temporaryFolder.path)) ?? []).map {
            temporaryFolder.appendingPathComponent($0)
        }
        return (digests, temporaries)
    }

    private static func writeSynced(_ bytes: [UInt8], to path: String) throws {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(path)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
    }

    private static func syncDirectory(_ path: String) {
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
