import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A request body as it arrives: in memory up to `memoryLimit` bytes, then in an unlinked temporary file, so a
/// large upload costs disk and page cache rather than process memory. ``data()`` hands the whole body out as one
/// `Data` (the file memory-mapped, unmapped when the last copy goes).
///
/// Owned by one connection's worker thread.
final class BodyBuffer {
    private let memoryLimit: Int
    private let directory: String
    private var memory = Data()
    private var file: Int32 = -1
    /// Bytes received so far.
    private(set) var count = 0
    /// The `errno` of a failed file write (then the rest of the body is dropped), or 0.
    private(set) var writeError: Int32 = 0

    init(memoryLimit: Int, directory: String) {
        self.memoryLimit = max(0, memoryLimit)
        self.directory = directory
    }

    deinit { if file >= 0 { close(file) } }

    /// Adds `size` bytes at `bytes`.
    func append(_ bytes: UnsafeRawPointer, count size: Int) {
        guard writeError == 0 else { return }
        count += size
        if file < 0, memory.count + size <= memoryLimit {
            memory.append(bytes.assumingMemoryBound(to: UInt8.self), count: size)
            return
        }
        if file < 0 {
            guard openFile() else { return }
            let held = memory
            memory = Data()
            guard held.withUnsafeBytes({ write($0.baseAddress, $0.count) }) else { return }
        }
        _ = write(bytes, size)
    }

    /// The whole body (empty when nothing arrived).
    /// - Throws: ``HTTPStatusError`` 507 `insufficient_storage` when the disk was full, 500 otherwise, for a
    ///   body that could not be written or mapped.
    func data() throws -> Data {
        if let error = storageError(writeError) { throw error }
        guard file >= 0 else { return memory }
        guard count > 0 else { return Data() }
        let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, file, 0)
        guard let mapped, mapped != MAP_FAILED else { throw storageError(errno) ?? HTTPStatusError.internalError }
        let length = count
        return Data(bytesNoCopy: mapped, count: length, deallocator: .custom { pointer, _ in munmap(pointer, length) })
    }

    private func storageError(_ code: Int32) -> HTTPStatusError? {
        guard code != 0 else { return nil }
        if code == ENOSPC || code == EDQUOT { return HTTPStatusError.insufficientStorage }
        return HTTPStatusError.internalError
    }

    private func openFile() -> Bool {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array("failscope-body-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            writeError = errno == 0 ? EIO : errno
            return false
        }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        file = descriptor
        return true
    }

    private func write(_ bytes: UnsafeRawPointer?, _ size: Int) -> Bool {
        guard let bytes else { return true }
        var offset = 0
        while offset < size {
            let written = Glibc.write(file, bytes + offset, size - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                writeError = written < 0 ? errno : ENOSPC
                // What was written is dropped now, so the space is free before the answer goes out.
                close(file)
                file = -1
                return false
            }
            offset += written
        }
        return true
    }
}
