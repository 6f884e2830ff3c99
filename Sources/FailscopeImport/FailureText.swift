import FailscopeModel
import Foundation

/// Finds a failure's source location in what a report gives, and cleans the message of it.
///
/// Sources, in order: `file`/`line` attributes on the failure element;
/// an Xcode URL fragment inside the message or text (`/path/File.swift#CharacterRangeLen=0&…&StartingLineNumber=36`,
/// as written by fastlane trainer); a `file:line` of a source file inside the message, then the text
/// (`CartUITests.swift:77: …`, `… (Unit.swift:19)`, a bare `BaseScreen.swift:29`); finally the test case's own
/// `file`/`line` attributes. `<unknown>:0` is no location. Percent-encoded paths (`swift%20testing`) are decoded,
/// and a bare file name is completed with the test case's `file` attribute when that names the same file.
enum FailureText {
    static let sourceExtensions: Set<String> = [
        "swift", "m", "mm", "h", "hpp", "c", "cc", "cpp", "cxx", "kt", "kts", "java", "py", "ts", "tsx", "js", "jsx",
        "rb", "go", "rs", "cs", "php", "scala", "groovy", "dart",
    ]

    struct Located {
        var location: SourceLocation?
        var message: String
    }

    /// Locates and cleans one failure.
    /// - Parameters:
    ///   - message: the `message` attribute (or the xcresult failure node's name).
    ///   - text: the element's text, already bounded by the caller.
    ///   - type: the failure's `type` attribute; a message that only repeats it and names the test gives way to the text.
    ///   - file, line: the failure element's own attributes.
    ///   - testFile, testLine: the test case element's attributes.
    static func locate(
        message: String?, text: String?, type: String? = nil, file: String? = nil, line: String? = nil,
        testFile: String? = nil, testLine: String? = nil
    ) -> Located {
        var message = message ?? ""
        let text = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        // xcresultparser writes message="Uncategorized: Suite.test()" and the real message as text.
        if let type, !type.isEmpty, message.hasPrefix(type + ":"), !text.isEmpty { message = "" }
        var location: SourceLocation?
        if let file, !file.isEmpty, let line = line.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            location = SourceLocation(file: decodePath(file), line: line)
        }
        var cleanedMessage = message
        var cleanedText = text
        if location == nil {
            if let (found, rest) = xcodeFragment(in: message) {
                location = found
                cleanedMessage = rest
            } else if let (found, rest) = xcodeFragment(in: text) {
                location = found
                cleanedText = rest
            }
        }
        if location == nil {
            if let (found, rest) = fileLine(in: message) {
                location = found
                cleanedMessage = rest
            } else if let (found, rest) = fileLine(in: text) {
                location = found
                cleanedText = rest
            }
        } else {
            // Remove a repeated location from the message even when the attributes gave it.
            if let (found, rest) = fileLine(in: cleanedMessage), found.fileName == location!.fileName {
                cleanedMessage = rest
            }
            if let (found, rest) = fileLine(in: cleanedText), found.fileName == location!.fileName {
                cleanedText = rest
            }
        }
        if location == nil, let testFile, !testFile.isEmpty,
            let line = testLine.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        {
            location = SourceLocation(file: decodePath(testFile), line: line)
        }
        if var found = location, let testFile, !testFile.isEmpty, !found.file.contains("/") {
            let full = decodePath(testFile)
            if SourceLocation(file: full, line: 0).fileName == found.file {
                found.file = full
                location = found
            }
        }
        if let found = location, found.file == "<unknown>" || found.file.isEmpty { location = nil }
        var result = cleanedMessage.trimmingCharacters(in: .whitespacesAndNewlines)
        let strippedText = cleanedText.trimmingCharacters(in: .whitespacesAndNewlines)
        if result.isEmpty {
            result = strippedText
        } else if !strippedText.isEmpty, strippedText != result, !result.contains(strippedText) {
            // Details (a stack trace) are kept whole; only a text that is nothing but the location goes.
            result += "\n" + text
        }
        return Located(location: location, message: result)
    }

    /// `path#…StartingLineNumber=N…`, optionally inside parentheses; returns the location and the text without it.
    static func xcodeFragment(in text: String) -> (SourceLocation, String)? {
        guard let hash = text.range(of: "StartingLineNumber=") else { return nil }
        // Walk back to the start of the path: after "(" or whitespace before the '#'.
        guard let sharp = text[..<hash.lowerBound].lastIndex(of: "#") else { return nil }
        var start = sharp
        while start > text.startIndex {
            let previous = text.index(before: start)
            if text[previous] == "(" || text[previous].isWhitespace { break }
            start = previous
        }
        let digits = text[hash.upperBound...].prefix(while: \.isNumber)
        guard let line = Int(digits) else { return nil }
        var end = hash.upperBound
        while end < text.endIndex, text[end] != ")", !text[end].isWhitespace { end = text.index(after: end) }
        let path = String(text[start..<sharp])
        var removeStart = start
        var removeEnd = end
        if removeStart > text.startIndex, text[text.index(before: removeStart)] == "(", removeEnd < text.endIndex,
            text[removeEnd] == ")"
        {
            removeStart = text.index(before: removeStart)
            removeEnd = text.index(after: removeEnd)
        }
        let rest = tidy(String(text[..<removeStart]) + String(text[removeEnd...]))
        return (SourceLocation(file: decodePath(path), line: line), rest)
    }

    /// The first `path/File.ext:line` with a source-file extension; returns it and the text without it.
    static func fileLine(in text: String) -> (SourceLocation, String)? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func isPathScalar(_ s: Unicode.Scalar) -> Bool {
            !(s.properties.isWhitespace || s == ":" || s == "(" || s == ")" || s == "\"" || s == "'" || s == "<"
                || s == ">" || s == "[" || s == "]" || s == ",")
        }
        while index < scalars.count {
            guard scalars[index] == ":" else {
                index += 1
                continue
            }
            // Digits after the colon.
            var digitEnd = index + 1
            while digitEnd < scalars.count, ("0"..."9").contains(scalars[digitEnd]) { digitEnd += 1 }
            guard digitEnd > index + 1 else {
                index += 1
                continue
            }
            var start = index
            while start > 0, isPathScalar(scalars[start - 1]) { start -= 1 }
            let path = String(String.UnicodeScalarView(scalars[start..<index]))
            guard let dot = path.lastIndex(of: "."),
                sourceExtensions.contains(String(path[path.index(after: dot)...]).lowercased()),
                dot > path.startIndex,
                let line = Int(String(String.UnicodeScalarView(scalars[(index + 1)..<digitEnd])))
            else {
                index = digitEnd
                continue
            }
            // Remove "path:line" plus a following ":" / " -" separator, or surrounding parentheses.
            var removeStart = start
            var removeEnd = digitEnd
            if removeEnd < scalars.count, scalars[removeEnd] == ":" {  // path:line:column
                var columnEnd = removeEnd + 1
                while columnEnd < scalars.count, ("0"..."9").contains(scalars[columnEnd]) { columnEnd += 1 }
                if columnEnd > removeEnd + 1 { removeEnd = columnEnd }
            }
            if removeStart > 0, scalars[removeStart - 1] == "(", removeEnd < scalars.count, scalars[removeEnd] == ")" {
                removeStart -= 1
                removeEnd += 1
            } else if removeEnd < scalars.count, scalars[removeEnd] == ":" {
                removeEnd += 1
            } else if removeEnd + 1 < scalars.count, scalars[removeEnd] == " ", scalars[removeEnd + 1] == "-" {
                removeEnd += 2
            }
            var before = String(String.UnicodeScalarView(scalars[..<removeStart]))
            if before.hasSuffix("Assertion Failure: ") { before.removeLast("Assertion Failure: ".count) }
            let after = String(String.UnicodeScalarView(scalars[removeEnd...]))
            return (SourceLocation(file: decodePath(path), line: line), tidy(before + after))
        }
        return nil
    }

    /// Trims whitespace and a dangling " -" left where a location was removed.
    static func tidy(_ text: String) -> String {
        var result = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while result.hasSuffix(" -") || result.hasSuffix("-") && result.count == 1 {
            result = String(result.dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        while result.hasPrefix("- ") { result = String(result.dropFirst(2)) }
        return result
    }

    /// `file://` stripped and percent-encoding decoded; the text unchanged when it is not valid encoding.
    static func decodePath(_ path: String) -> String {
        var path = path.trimmingCharacters(in: .whitespaces)
        if path.hasPrefix("file://") { path = String(path.dropFirst(7)) }
        if path.contains("%"), let decoded = path.removingPercentEncoding { return decoded }
        return path
    }
}
