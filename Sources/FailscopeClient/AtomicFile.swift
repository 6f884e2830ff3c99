import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Writes files so that a crash leaves either the old file or the whole new one, never a part:
/// a temporary file in the same folder, `fsync`, `rename` over the target, then `fsync` of the folder
/// (POSIX `rename(2)` is atomic within one file system).
enum AtomicFile {
    /// Writes `data` to `url` atomically and durably.
    /// - Throws: `CocoaError` / `POSIXError` when the folder is not writable or the disk is full.
    static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary.path, url.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary.path)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        let folderFD = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }
}
