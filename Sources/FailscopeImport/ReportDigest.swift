import FailscopeModel
import Foundation

/// A stable name for an imported report: the run id derived from the project, the import's branch, commit
/// and device, and the file's bytes, so that importing the same file again with the same options updates
/// the same run instead of adding one, and the same bytes imported for another commit or branch (a
/// report without times can repeat byte for byte) become a run of their own instead of moving the first.
public enum ReportDigest {
    /// SHA-256 over the SHA-256 digests of the file's 8 MiB chunks (a fixed-depth hash list), in hex.
    /// Memory: one chunk. - Throws: `ImportError` when the file cannot be read.
    public static func contentDigest(ofFileAt path: String) throws(ImportError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, reason: "cannot open the file for reading")
        }
        defer { try? handle.close() }
        var digests = ""
        do {
            while let chunk = try handle.read(upToCount: 8 << 20), !chunk.isEmpty {
                digests += SHA256.hex(of: chunk)
            }
        } catch {
            throw ImportError(file: path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        return SHA256.hex(of: Data(digests.utf8))
    }

    /// `import-` and 40 hex digits of SHA-256 over, NUL-separated: the project, `branch=…`, `commit=…` and
    /// `device=…` for the options given, and the content digests; a valid `Run` id. Without branch, commit
    /// and device it is the id earlier versions derived from the project and the bytes alone.
    public static func runID(_ options: ImportOptions, contentDigests: [String]) -> String {
        let qualifiers = [
            options.branch.map { "branch=\($0)" }, options.commit.map { "commit=\($0)" },
            options.device.map { "device=\($0)" },
        ].compactMap { $0 }
        let text = ([options.project] + qualifiers + contentDigests).joined(separator: "\u{0}")
        return "import-" + SHA256.hex(of: Data(text.utf8)).prefix(40)
    }
}
