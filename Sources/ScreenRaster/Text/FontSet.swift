import Foundation

/// The font files the renderer draws text with: DejaVu Sans, regular and bold (Debian `fonts-dejavu-core`).
public struct FontSet: Hashable, Sendable {
    /// Path of the regular face (`DejaVuSans.ttf`).
    public var regular: String
    /// Path of the bold face (`DejaVuSans-Bold.ttf`), used for semibold and bold text.
    public var bold: String

    public init(regular: String, bold: String) {
        self.regular = regular
        self.bold = bold
    }

    /// The environment variable naming a folder that holds `DejaVuSans.ttf` and `DejaVuSans-Bold.ttf`.
    public static let environmentKey = "FAILSCOPE_FONT_DIR"
    /// Where Debian's `fonts-dejavu-core` installs them.
    public static let debianDirectory = "/usr/share/fonts/truetype/dejavu"

    /// The fonts in `directory` (`DejaVuSans.ttf`, `DejaVuSans-Bold.ttf`), or `nil` when either is missing.
    public static func inDirectory(_ directory: String) -> FontSet? {
        let set = FontSet(
            regular: (directory as NSString).appendingPathComponent("DejaVuSans.ttf"),
            bold: (directory as NSString).appendingPathComponent("DejaVuSans-Bold.ttf"))
        let files = FileManager.default
        return files.isReadableFile(atPath: set.regular) && files.isReadableFile(atPath: set.bold) ? set : nil
    }

    /// Finds DejaVu Sans: in `$FAILSCOPE_FONT_DIR` when set, else in Debian's folder, else through
    /// fontconfig (`fc-match`).
    /// - Throws: `FontError.notFound` listing the places searched and naming the package to install.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FontError) -> FontSet {
        var searched: [String] = []
        if let directory = environment[environmentKey], !directory.isEmpty {
            if let set = inDirectory(directory) { return set }
            throw FontError.notFound(searched: ["\(environmentKey)=\(directory)"])
        }
        if let set = inDirectory(debianDirectory) { return set }
        searched.append(debianDirectory)
        if let regular = fcMatch("DejaVu Sans:style=Book"), let bold = fcMatch("DejaVu Sans:style=Bold"),
            regular.hasSuffix("DejaVuSans.ttf"), bold.hasSuffix("DejaVuSans-Bold.ttf")
        {
            return FontSet(regular: regular, bold: bold)
        }
        searched.append("fc-match \"DejaVu Sans\"")
        throw FontError.notFound(searched: searched)
    }

    /// The file fontconfig picks for `pattern`, or `nil` when `fc-match` is missing or fails.
    private static func fcMatch(_ pattern: String) -> String? {
        let candidates = ["/usr/bin/fc-match", "/usr/local/bin/fc-match", "/opt/homebrew/bin/fc-match"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-f", "%{file}", pattern]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let path = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }
}

/// Why text cannot be drawn.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// DejaVu Sans was not found in any of the places listed.
    case notFound(searched: [String])
    /// FreeType could not initialize or open a font file (FreeType error code).
    case freeType(code: Int32, path: String)

    public var description: String {
        switch self {
        case .notFound(let searched):
            "DejaVu Sans (DejaVuSans.ttf and DejaVuSans-Bold.ttf) not found in "
                + searched.joined(separator: ", ")
                + "; install the Debian package fonts-dejavu-core (apt-get install fonts-dejavu-core) or set "
                + "\(FontSet.environmentKey) to a folder holding both files"
        case .freeType(let code, let path):
            "FreeType error \(code) opening \(path.isEmpty ? "the FreeType library" : path)"
        }
    }
}
