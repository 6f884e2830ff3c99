/// A place in source code: a file path as the compiler or report wrote it and a 1-based line.
///
/// Used for a failure location (the file:line XCTest reports) and for a call site (the test's
/// file:line that called a page object). `description` is `File.swift:42` (last path component).
public struct SourceLocation: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The path as reported (absolute or relative); never normalized, so it matches the report.
    public var file: String
    /// 1-based line number; 0 when the reporter knows only the file (XCTest's `<EXPR>:0`).
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The file's last path component, as a person reads it: `LoginTests.swift`.
    public var fileName: String {
        file.split(separator: "/").last.map(String.init) ?? file
    }

    public var description: String { "\(fileName):\(line)" }
}
