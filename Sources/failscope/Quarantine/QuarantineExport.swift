import FailscopeModel
import Foundation

/// Quarantine entries as arguments for runners that skip tests instead of forgiving their failures, written as one
/// line of POSIX-shell-quoted words (`eval "swift test $(failscope quarantine list --format swift-test)"`).
///
/// - `swift test`: `--skip <regex>` a test. `swift test` matches the regular expression against
///   `Module.Suite/test` (XCTest) and `Module.Suite/Inner/test()/File.swift:L:C` (Swift Testing, whose nested
///   suites Failscope names `Suite.Inner`), so the pattern is `(^|\.)Suite[./]Inner/test\(\)($|/)` with every
///   regular-expression metacharacter of the names backslash-escaped.
/// - `xcodebuild`: `-skip-testing:Target/Suite/test` (Xcode's test identifier; Failscope does not know the test
///   bundle, so `target` names it; nested suites are `/`-separated).
///
/// An entry narrowed to arguments, a page or a device cannot be expressed as a skip: its whole test is skipped.
enum QuarantineExport {
    /// `--skip` arguments for `swift test`, one pair an entry's test (each test once).
    static func swiftTest(_ entries: [QuarantineEntry]) -> String {
        line(tests(entries).flatMap { ["--skip", skipPattern(suite: $0.suite, name: $0.name)] })
    }

    /// `-skip-testing:` arguments for `xcodebuild test` of the test bundle `target`.
    static func xcodebuild(_ entries: [QuarantineEntry], target: String) -> String {
        line(
            tests(entries).map {
                "-skip-testing:"
                    + ([target] + $0.suite.split(separator: ".").map(String.init) + [$0.name])
                    .joined(separator: "/")
            })
    }

    /// The regular expression of one test for `swift test --skip`.
    static func skipPattern(suite: String, name: String) -> String {
        "(^|\\.)"
            + suite.split(separator: ".", omittingEmptySubsequences: false).map { regexEscaped(String($0)) }
            .joined(separator: "[./]") + "/" + regexEscaped(name) + "($|/)"
    }

    /// `text` matching itself literally in ICU (`NSRegularExpression`) and Swift `Regex` syntax.
    static func regexEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result += "\\" }
            result.append(character)
        }
        return result
    }

    /// `word` as one POSIX shell word: single-quoted, a `'` inside as `'\''`.
    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func line(_ words: [String]) -> String {
        words.map(shellQuoted).joined(separator: " ")
    }

    /// Each entry's (suite, name) once, in the entries' order.
    private static func tests(_ entries: [QuarantineEntry]) -> [(suite: String, name: String)] {
        var seen: Set<[String]> = []
        return entries.compactMap { entry in
            seen.insert([entry.suite, entry.name]).inserted ? (entry.suite, entry.name) : nil
        }
    }
}
