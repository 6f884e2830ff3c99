import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open, read-only regular file (or a byte range of one) to send as a response body.
///
/// Owns its file descriptor: it is closed when the last reference goes away, unless the transport took it over
/// (libmicrohttpd then closes it after sending). Shared between copies of a ``Response``; a response is sent once.
public final class OpenFile: Sendable {
    private let descriptor: Mutex<Int32>
    /// Byte offset of the range in the file.
    public let offset: Int
    /// Length of the range in bytes.
    public let length: Int
    /// The file's modification time, seconds since 1970 (for `ETag` / `Last-Modified`).
    public let modificationTime: Int
    /// The file's total size in bytes.
    public let fileSize: Int

    /// Opens the regular file at `path` (following no final symlink if `noFollow`).
    ///
    /// - Throws: ``HTTPStatusError`` 404 `not_found` if it is missing, unreadable or not a regular file (the
    ///   message never names the path).
    public init(path: String, noFollow: Bool = false) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (noFollow ? O_NOFOLLOW : 0))
        guard fd >= 0 else { throw HTTPStatusError.notFound() }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw HTTPStatusError.notFound()
        }
        descriptor = Mutex(fd)
        offset = 0
        length = Int(info.st_size)
        fileSize = Int(info.st_size)
        modificationTime = Int(info.st_mtim.tv_sec)
    }

    deinit {
        let fd = descriptor.withLock { $0 }
        if fd >= 0 { close(fd) }
    }

    /// Hands the descriptor to the caller, who must close it; later calls return -1.
    func take() -> Int32 {
        descriptor.withLock { fd in
            let taken = fd
            fd = -1
            return taken
        }
    }

    /// Reads the whole range into memory (`pread`, so the descriptor's position is unchanged).
    ///
    /// - Throws: `POSIXError` if reading fails or the descriptor was already taken.
    public func readAll() throws -> Data {
        try descriptor.withLock { fd in
            guard fd >= 0 else { throw POSIXError(.EBADF) }
            var data = Data(count: length)
            var done = 0
            try data.withUnsafeMutableBytes { buffer in
                while done < length {
                    let n = pread(fd, buffer.baseAddress! + done, length - done, off_t(offset + done))
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    }
                    if n == 0 { break }
                    done += n
                }
            }
            return data.prefix(done)
        }
    }
}
