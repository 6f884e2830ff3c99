import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the command line's FILE arguments into report files: globs (`reports/*.xml`, expanded here
/// so quoting them works too), folders (every regular file inside, recursively, hidden ones skipped)
/// and plain paths, in a stable order without repeats.
public enum ReportFiles {
    /// The expansion: files to import, and one problem per argument that matched nothing.
    public struct Expansion: Sendable, Equatable {
        public var files: [String] = []
        public var problems: [ImportError] = []
    }

    public static func expand(_ arguments: [String]) -> Expansion {
        var expansion = Expansion()
        var seen = Set<String>()
        func add(_ path: String) {
            if seen.insert(path).inserted { expansion.files.append(path) }
        }
        for argument in arguments {
            let matches = isGlob(argument) ? glob(argument) : [argument]
            if matches.isEmpty {
                expansion.problems.append(ImportError(file: argument, reason: "no file matches this pattern"))
                continue
            }
            for match in matches {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: match, isDirectory: &isDirectory) else {
                    expansion.problems.append(ImportError(file: match, reason: "no such file or folder"))
                    continue
                }
                if isDirectory.boolValue {
                    let inside = filesInFolder(match)
                    if inside.isEmpty {
                        expansion.problems.append(ImportError(file: match, reason: "the folder holds no files"))
                    }
                    inside.forEach(add)
                } else {
                    add(match)
                }
            }
        }
        return expansion
    }

    /// SwiftPM writes XCTest results to `PATH` and Swift Testing results to `PATH-swift-testing.xml`
    /// (swift-package-manager#9960); a mixed package needs both. One warning per half whose sibling
    /// exists on disk but is not among `files`.
    public static func missingSiblings(of files: [String]) -> [String] {
        let given = Set(files)
        var warnings: [String] = []
        for file in files where file.hasSuffix(".xml") {
            let sibling: String
            if file.hasSuffix("-swift-testing.xml") {
                sibling = String(file.dropLast("-swift-testing.xml".count)) + ".xml"
            } else {
                sibling = String(file.dropLast(4)) + "-swift-testing.xml"
            }
            if !given.contains(sibling), FileManager.default.fileExists(atPath: sibling) {
                warnings.append(
                    "\(file): SwiftPM wrote the other half of this run to \(sibling); import both files together (with --run-id) to see every test"
                )
            }
        }
        return warnings
    }

    static func isGlob(_ text: String) -> Bool {
        text.contains("*") || text.contains("?") || text.contains("[")
    }

    /// POSIX `glob(3)`, sorted; an empty list when nothing matches.
    static func glob(_ pattern: String) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard Glibc.glob(pattern, GLOB_TILDE, nil, &matches) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { index in
            matches.gl_pathv[index].map { String(cString: $0) }
        }.sorted()
    }

    /// Regular files under `folder`, recursively, sorted, skipping names that start with a dot.
    static func filesInFolder(_ folder: String) -> [String] {
        let url = URL(fileURLWithPath: folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [String] = []
        for case let file as URL in enumerator {
            if (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(
                    folder.hasSuffix("/") ? folder + relative(file, to: url) : folder + "/" + relative(file, to: url))
            }
        }
        return files.sorted()
    }

    private static func relative(_ file: URL, to folder: URL) -> String {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
        let path = file.standardizedFileURL.resolvingSymlinksInPath().path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : file.lastPathComponent
    }
}
