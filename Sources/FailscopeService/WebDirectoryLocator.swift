import Foundation

/// Finds the dashboard folder (`Web/`) for `failscope serve`, in this order:
///
/// 1. the folder given with `--web DIR` (or `FAILSCOPE_WEB`); it must exist;
/// 2. beside the binary: `<bindir>/Web`, then `<bindir>/../share/failscope/Web` (an installed layout,
///    the Docker image);
/// 3. the source checkout: the nearest ancestor of the binary's folder, then of the working directory,
///    that holds both `Package.swift` and `Web/` (a `swift build` binary in `.build/...`).
///
/// The first folder that exists wins; `nil` when none does (the service then answers `/` with a notice).
public enum WebDirectoryLocator {
    /// - Throws: `CocoaError(.fileNoSuchFile)` when an explicit folder does not exist.
    public static func locate(
        explicit: String?, executable: URL? = currentExecutable(),
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws -> URL? {
        if let explicit {
            let url = URL(fileURLWithPath: explicit).standardizedFileURL
            guard isDirectory(url) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: explicit])
            }
            return url
        }
        var candidates: [URL] = []
        if let binFolder = executable?.deletingLastPathComponent() {
            candidates.append(binFolder.appendingPathComponent("Web"))
            candidates.append(
                binFolder.deletingLastPathComponent().appendingPathComponent("share/failscope/Web").standardizedFileURL)
        }
        for start in [executable?.deletingLastPathComponent(), workingDirectory].compactMap({ $0 }) {
            if let checkout = checkout(containing: start) { candidates.append(checkout.appendingPathComponent("Web")) }
        }
        return candidates.first(where: isDirectory)
    }

    /// The running binary, through `/proc/self/exe` (symlinks resolved), else `argv[0]`.
    public static func currentExecutable() -> URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).standardizedFileURL }
    }

    static func checkout(containing start: URL) -> URL? {
        var folder = start.standardizedFileURL
        for _ in 0..<12 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                isDirectory(folder.appendingPathComponent("Web"))
            {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
        return nil
    }

    static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }
}
