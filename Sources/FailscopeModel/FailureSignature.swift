/// What identifies one kind of failure across results: the failure's message with its variable parts
/// taken out, plus where it failed. Two failures with the same signature are "the same error"
/// (docs/errors.md: the rules, with examples).
///
/// - `message`: ``normalize(_:)`` of the failure's message (at most ``messageLimit`` characters).
/// - `location`: the failure location's `File.swift:42` (last path component, so checkouts at different
///   paths agree); when the reporter gave no line (XCTest's `<EXPR>:0`) or no location, the call site's;
///   `nil` when neither is known.
/// - `id`: the first 32 lowercase hex digits of SHA-256 over `message`, U+001F and `location` (`""` for
///   none): the key the store groups by.
public struct FailureSignature: Codable, Sendable, Hashable {
    public var id: String
    public var message: String
    public var location: String?

    /// The longest normalized message kept, in characters; longer ones are cut (the start of a message
    /// says what failed; the rest is usually a dump).
    public static let messageLimit = 1000

    public init(message: String, location: String?) {
        self.message = message
        self.location = location
        id = String(SHA256.hex(of: Array((message + "\u{1F}" + (location ?? "")).utf8)).prefix(32))
    }

    /// The signature of `failure`.
    public init(of failure: Failure) {
        let place = [failure.location, failure.callSite].compactMap { $0 }.first { $0.line > 0 }
            ?? failure.location ?? failure.callSite
        self.init(message: Self.normalize(failure.message), location: place?.description)
    }

    /// The signature of a result: its first failure's, `nil` when the result did not fail or error or
    /// recorded no failure.
    public init?(of result: TestResult) {
        guard result.status.outcome == .fail, let first = result.failures.first else { return nil }
        self.init(of: first)
    }

    /// `message` with its variable parts replaced by placeholders, in one pass from the start:
    /// 1. text in quotes (`"…"`, `'…'`, `“…”`, `‘…’`; an apostrophe inside a word is not a quote) → `"…"`;
    /// 2. a value Swift Testing shows after `→ ` in an expectation (`(count → 3)`) → `→ …`;
    /// 3. a UUID (8-4-4-4-12 hex digits) → `<uuid>`;
    /// 4. `0x` and hex digits (an address, a pointer) → `0x…`;
    /// 5. a run of 8 or more hex digits with both a digit and a letter (a hash, a commit) → `<hex>`;
    /// 6. a path (a word after white space or `(`/`[` containing `/`, its last component a file name with a `.`) →
    ///    its last component (`/Users/a/LoginTests.swift:12` →
    ///    `LoginTests.swift:<n>`);
    /// 7. a number (digits, with `.`/`,` between digits and a leading `-`) not preceded by a letter
    ///    (`Int64`, `utf8`, `iPhone15` are names and stay) → `<n>`; units after it stay (`3.5s` → `<n>s`);
    /// 8. runs of white space → one space, trimmed; cut at ``messageLimit`` characters.
    public static func normalize(_ message: String) -> String {
        let text = Array(message.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        func isHex(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isASCIIHexDigit }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || isDigit(scalar) || scalar == "_"
        }
        func append(_ string: String) { output.append(contentsOf: string.unicodeScalars) }
        func hexRun(from start: Int) -> Int {
            var end = start
            while end < text.count, isHex(text[end]) { end += 1 }
            return end
        }
        func isUUID(at start: Int) -> Bool {
            var position = start
            for (group, length) in [8, 4, 4, 4, 12].enumerated() {
                let end = hexRun(from: position)
                guard end - position == length else { return false }
                position = end
                if group < 4 {
                    guard position < text.count, text[position] == "-" else { return false }
                    position += 1
                }
            }
            return position >= text.count || !isWordCharacter(text[position])
        }
        let pathStops: Set<Unicode.Scalar> = ["(", ")", "[", "]", "\"", "'", ",", "="]
        let closing: [Unicode.Scalar: Unicode.Scalar] = ["\"": "\"", "'": "'", "“": "”", "‘": "’"]
        while index < text.count {
            let scalar = text[index]
            let previous: Unicode.Scalar? = index > 0 ? text[index - 1] : nil
            let startsWord = previous.map { !isWordCharacter($0) } ?? true
            // 1. Quoted text (an apostrophe inside a word, as in "won't", is not a quote).
            if let close = closing[scalar], startsWord || scalar == "\"" {
                var end = index + 1
                while end < text.count, text[end] != close, text[end] != "\n" { end += 1 }
                if end < text.count, text[end] == close {
                    append("\"…\"")
                    index = end + 1
                    continue
                }
            }
            // 2. Swift Testing's captured value: `(expression → value)`, up to the matching `)`.
            if scalar == "→", index + 1 < text.count, text[index + 1] == " " {
                var end = index + 2
                var depth = 0
                while end < text.count {
                    if text[end] == "(" { depth += 1 }
                    if text[end] == ")" {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    if text[end] == "\n" { break }
                    end += 1
                }
                append("→ …")
                index = end
                continue
            }
            if startsWord, isHex(scalar) {
                // 3. UUID.
                if isUUID(at: index) {
                    append("<uuid>")
                    index += 36
                    continue
                }
                // 4. Address.
                if scalar == "0", index + 2 < text.count, text[index + 1] == "x" || text[index + 1] == "X",
                    isHex(text[index + 2])
                {
                    append("0x…")
                    index = hexRun(from: index + 2)
                    continue
                }
                // 5. Hash.
                let end = hexRun(from: index)
                if end - index >= 8, text[index..<end].contains(where: isDigit),
                    text[index..<end].contains(where: { !isDigit($0) }),
                    end >= text.count || !isWordCharacter(text[end])
                {
                    append("<hex>")
                    index = end
                    continue
                }
            }
            // 6. Path: keep the last component (a file name). Only a word after white space or an opening bracket is
            // read as a path, and the scan stops at the characters that start one, so it stays linear.
            if previous.map({ $0.properties.isWhitespace || $0 == "(" || $0 == "[" }) ?? true,
                !scalar.properties.isWhitespace
            {
                var end = index
                var lastSlash: Int?
                while end < text.count, !pathStops.contains(text[end]), !text[end].properties.isWhitespace {
                    if text[end] == "/" { lastSlash = end }
                    end += 1
                }
                if let lastSlash, lastSlash + 1 < end, text[lastSlash + 1..<end].contains(".") {
                    index = lastSlash + 1
                    continue
                }
            }
            // 7. Number; digits right after a letter belong to a name (`Int64`) and stay.
            if isDigit(scalar), previous?.properties.isAlphabetic == true {
                while index < text.count, isDigit(text[index]) {
                    output.append(text[index])
                    index += 1
                }
                continue
            }
            let negative = scalar == "-" && index + 1 < text.count && isDigit(text[index + 1])
            if isDigit(scalar) || negative, !(previous.map { $0.properties.isAlphabetic } ?? false) {
                var end = index + 1
                while end < text.count {
                    if isDigit(text[end]) {
                        end += 1
                    } else if text[end] == "." || text[end] == ",", end + 1 < text.count, isDigit(text[end + 1]) {
                        end += 2
                    } else {
                        break
                    }
                }
                append("<n>")
                index = end
                continue
            }
            // 8. White space.
            if scalar.properties.isWhitespace {
                if let last = output.last, last != " " { output.append(" ") }
                index += 1
                continue
            }
            output.append(scalar)
            index += 1
        }
        var result = String(output)
        while result.last == " " { result.removeLast() }
        if result.count > messageLimit { result = String(result.prefix(messageLimit)) }
        return result
    }
}
