import Foundation

/// Streams a report's bytes to `XMLParser`, repairing what real JUnit writers get wrong.
///
/// The repairs are the ones reported against real tools (swift-testing#1917,
/// PR#1918, XCTestHTMLReport#103/#131/#186): raw control characters (XML 1.0 §2.2 forbids them, also as
/// `&#27;`) become private-use characters that `restore(_:)` turns back; an `&` that starts no reference
/// becomes `&amp;`; a `<` inside an attribute value, or one inside the text of a leaf element
/// (`failure`, `error`, `skipped`, `system-out`, …) that does not start a JUnit element, becomes `&lt;`; a
/// quote inside an attribute value that is not followed by the end of the tag or another attribute becomes
/// `&quot;`/`&apos;`. One deliberate change to well-formed input: a literal tab, line feed or carriage return
/// inside an attribute value is written as a character reference, so that attribute-value normalization
/// (XML 1.0 §3.3.3) does not flatten it to a space: multi-line failure messages keep their lines, and
/// parameterized cases whose argument is `\t`, `\r` or `\n` stay distinct (fastlane's Xcode 16 fixtures).
/// `<!DOCTYPE …>` declarations are dropped (counted in `declarations`): JUnit needs no DTD, and entities
/// declared in one could expand without bound. Otherwise, on well-formed input the output is the input.
///
/// It also tracks the open elements, so that a file that ends early (a killed CI job) is reported as
/// truncated with the element left open, which the push parser in swift-corelibs-foundation does not report.
/// Text longer than `textLimit` bytes in one run (a 1 GB `<system-out>`, jenkinsci/junit-plugin#467) is cut:
/// the rest of the run is read and counted in `droppedTextBytes` but never reaches the parser, whose text
/// nodes libxml2 limits to 10 MB anyway. Memory: a 64 KiB input buffer and the output the parser asks for.
final class XMLRepairReader {
    /// What was repaired, and where the first repair was (1-based line and column in the input).
    struct Repairs: Sendable, Equatable {
        var controlCharacters = 0
        var ampersands = 0
        var lessThans = 0
        var quotes = 0
        var firstLine = 0
        var firstColumn = 0

        var total: Int { controlCharacters + ampersands + lessThans + quotes }

        /// `recovered malformed XML: replaced 1 control character, escaped 2 '&' (first at line 4, column 61)`.
        var summary: String? {
            guard total > 0 else { return nil }
            var parts: [String] = []
            if controlCharacters > 0 {
                parts.append(
                    "kept \(controlCharacters) control character\(controlCharacters == 1 ? "" : "s") XML 1.0 forbids")
            }
            if ampersands > 0 { parts.append("escaped \(ampersands) unescaped '&'") }
            if lessThans > 0 { parts.append("escaped \(lessThans) unescaped '<'") }
            if quotes > 0 {
                parts.append("escaped \(quotes) unescaped quote\(quotes == 1 ? "" : "s") inside attribute values")
            }
            return "recovered malformed XML: " + parts.joined(separator: ", ")
                + " (first at line \(firstLine), column \(firstColumn))"
        }
    }

    /// Where the input opened one element too many (1-based line and column of the end of its start tag).
    struct DepthExceeded: Sendable, Equatable {
        var line: Int
        var column: Int
        var element: String
    }

    /// Where the input ended while an element (or a comment, CDATA section, tag) was still open.
    struct Truncation: Sendable, Equatable {
        var line: Int
        var column: Int
        var openElement: String?
        var openElementLine: Int?
        var inside: String?
        /// The last line as the parser counts it (line feeds inside attribute values become references).
        var parserLine: Int
    }

    /// Elements whose content is text: a `<` there that does not open a JUnit element is text.
    static let leafElements: Set<String> = [
        "failure", "error", "skipped", "system-out", "system-err", "stackTrace", "message", "property",
    ]
    /// Elements that JUnit writers use; inside a leaf element only these are taken as tags.
    static let knownElements: Set<String> = [
        "testsuites", "testsuite", "testcase", "properties", "property", "failure", "error", "skipped",
        "system-out", "system-err", "flakyFailure", "flakyError", "rerunFailure", "rerunError", "stackTrace",
    ]
    private static let knownElementBytes = knownElements.map { Array($0.utf8) }
    private static let lessThanReference = Array("&lt;".utf8)

    private enum State {
        case content, tag, attributeValue(UInt8), unquotedValue, endTag, comment, cdata, processingInstruction,
            declaration
    }

    private let readChunk: (inout [UInt8], Int) -> Int
    private var input: [UInt8] = []
    private var position = 0
    private var inputEnded = false
    private var output: [UInt8] = []
    private var outputPosition = 0
    private var state = State.content
    private var pendingName = ""
    private var stack: [(name: String, line: Int)] = []
    private var passthrough = false
    private var started = false
    private(set) var repairs = Repairs()
    private(set) var truncation: Truncation?
    private(set) var line = 1
    private(set) var column = 1
    /// Input bytes consumed so far (for progress).
    private(set) var bytesRead: Int64 = 0
    private(set) var finished = false
    /// Bytes of one text run or CDATA section passed on to the parser before the rest is dropped.
    let textLimit: Int
    /// Elements open at once beyond which the input is refused (JUnit needs a handful; a hostile file
    /// nests millions).
    let maxDepth: Int
    /// Where the input opened element `maxDepth + 1`, when it did; nothing after it is read.
    private(set) var depthExceeded: DepthExceeded?
    /// Bytes of text dropped because a run was longer than `textLimit`.
    private(set) var droppedTextBytes: Int64 = 0
    private var textRun = 0
    /// `<!DOCTYPE …>` declarations dropped (JUnit needs none; entities from one are not expanded).
    private(set) var declarations = 0
    private var declarationDepth = 0
    private var bytesFetched: Int64 = 0
    private var progressReported: Int64 = 0
    /// Called with the bytes read from the source so far, every 4 MiB (also while a long text is dropped).
    var progress: ((Int64) -> Void)?
    private var hiddenLineFeeds = 0
    private var dropping = false

    /// Reads through `readChunk(&buffer, maxCount)`, which appends up to `maxCount` bytes and returns how many (0 at end).
    init(textLimit: Int = 1 << 20, maxDepth: Int = 256, readChunk: @escaping (inout [UInt8], Int) -> Int) {
        self.textLimit = textLimit
        self.maxDepth = maxDepth
        self.readChunk = readChunk
    }

    /// Reads a file in 64 KiB chunks.
    convenience init(fileHandle: FileHandle, textLimit: Int = 1 << 20) {
        self.init(textLimit: textLimit) { buffer, maxCount in
            guard let data = try? fileHandle.read(upToCount: maxCount), !data.isEmpty else { return 0 }
            buffer.append(contentsOf: data)
            return data.count
        }
    }

    /// Reads bytes held in memory (tests, small inputs).
    convenience init(data: Data, textLimit: Int = 1 << 20) {
        var offset = 0
        self.init(textLimit: textLimit) { buffer, maxCount in
            let count = min(maxCount, data.count - offset)
            guard count > 0 else { return 0 }
            buffer.append(contentsOf: data[(data.startIndex + offset)..<(data.startIndex + offset + count)])
            offset += count
            return count
        }
    }

    /// Copies up to `maxLength` repaired bytes into `buffer`; returns the count, 0 at the end.
    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        while output.count - outputPosition < maxLength, !finished { step(until: maxLength) }
        let count = min(maxLength, output.count - outputPosition)
        if count > 0 {
            output.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + outputPosition, count: count)
            }
            outputPosition += count
        }
        if outputPosition == output.count {
            output.removeAll(keepingCapacity: true)
            outputPosition = 0
        }
        return count
    }

    /// Everything repaired, as one `Data` (tests).
    func readAll() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { read(into: $0.baseAddress!, maxLength: 4096) }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Turns the private-use stand-ins for control characters back into the characters.
    static func restore(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x10FF00 && $0.value <= 0x10FF1F }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x10FF00, scalar.value <= 0x10FF1F {
                scalars.append(Unicode.Scalar(scalar.value - 0x10FF00)!)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    // MARK: Input

    /// Makes `count` bytes available from `position` unless the input ends first; returns how many are.
    @discardableResult
    private func ensure(_ count: Int) -> Int {
        while input.count - position < count, !inputEnded {
            if position > 0 {
                input.removeFirst(position)
                position = 0
            }
            let count = readChunk(&input, 65536)
            if count == 0 { inputEnded = true }
            bytesFetched += Int64(count)
            if let progress, bytesFetched - progressReported >= 4 << 20 {
                progressReported = bytesFetched
                progress(bytesFetched)
            }
        }
        return input.count - position
    }

    private func peek(_ offset: Int) -> UInt8? {
        ensure(offset + 1) > offset ? input[position + offset] : nil
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard ensure(count) >= count else { return false }
        let base = literal.utf8Start
        for index in 0..<count where input[position + index] != base[index] { return false }
        return true
    }

    /// Consumes `count` input bytes, copying them to the output.
    private func copy(_ count: Int) {
        consume(count, writing: input[position..<(position + count)])
    }

    /// Consumes `count` input bytes, writing `replacement` instead.
    private func replace(_ count: Int, with replacement: [UInt8]) {
        consume(count, writing: replacement)
    }

    /// Consumes `count` input bytes, writing `bytes` in their place (or, while text is dropped, counting
    /// them as dropped).
    private func consume<Bytes: Collection<UInt8>>(_ count: Int, writing bytes: Bytes) {
        advanceLocation(over: count)
        if dropping {
            droppedTextBytes += Int64(count)
        } else {
            output.append(contentsOf: bytes)
            countText(count)
        }
        position += count
        bytesRead += Int64(count)
    }

    /// Counts text passed on; past `textLimit` the rest of the run is dropped.
    private func countText(_ count: Int) {
        switch state {
        case .content, .cdata:
            textRun += count
            if textRun >= textLimit { dropping = true }
        default:
            break
        }
    }

    /// How many of `available` bytes one copy of text may take without passing `textLimit`.
    private func runLimit(_ available: Int) -> Int {
        dropping ? available : max(1, min(available, textLimit - textRun))
    }

    /// A tag, comment or section boundary: text counting starts again.
    private func endTextRun() {
        textRun = 0
        dropping = false
    }

    /// Moves the line and column past the next `count` input bytes (columns count characters, not bytes).
    private func advanceLocation(over count: Int) {
        guard count > 0 else { return }
        input.withUnsafeBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(rebasing: buffer[position..<(position + count)])
            // Branch-free reductions (the compiler vectorizes them): line feeds, then characters after the last.
            var lineFeeds = 0
            for byte in bytes { lineFeeds &+= byte == 0x0A ? 1 : 0 }
            var start = 0
            if lineFeeds > 0 {
                line += lineFeeds
                column = 1
                var last = bytes.count - 1
                while bytes[last] != 0x0A { last -= 1 }
                start = last + 1
            }
            var characters = 0
            for byte in UnsafeBufferPointer(rebasing: bytes[start...]) { characters &+= byte & 0xC0 != 0x80 ? 1 : 0 }
            column += characters
        }
    }

    /// Length of the run from `position` (at least 1, at most `limit`) before a byte that `stop` flags;
    /// tests 32 bytes at a time without branching, then finds the byte.
    @inline(__always)
    private func runLength(limit: Int, stop: (UInt8) -> Bool) -> Int {
        input.withUnsafeBufferPointer { buffer in
            var length = 1
            while length + 32 <= limit {
                var flagged: UInt8 = 0
                for offset in 0..<32 { flagged |= stop(buffer[position + length + offset]) ? 1 : 0 }
                if flagged != 0 { break }
                length += 32
            }
            while length < limit, !stop(buffer[position + length]) { length += 1 }
            return length
        }
    }

    private func noteRepair() {
        if repairs.total == 0 {
            repairs.firstLine = line
            repairs.firstColumn = column
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// The UTF-8 of the private-use stand-in for control character `value` (U+10FF00 + value), for 0..<32.
    private static let standIns: [[UInt8]] = (0..<32).map {
        Array(String(Character(Unicode.Scalar(0x10FF00 + UInt32($0))!)).utf8)
    }

    /// Length of an XML name starting at `offset`, 0 when none (looks ahead at most 256 bytes).
    private func nameLength(at offset: Int) -> Int {
        guard let first = peek(offset), Self.isNameStart(first) else { return 0 }
        if ensure(offset + 257) >= offset + 257 {
            // Buffered: index directly (text full of '<' asks this once per '<').
            return input.withUnsafeBufferPointer { buffer in
                var length = 1
                while length < 256, Self.isNameByte(buffer[position + offset + length]) { length += 1 }
                return length
            }
        }
        var length = 1
        while length < 256, let byte = peek(offset + length), Self.isNameByte(byte) { length += 1 }
        return length
    }

    /// Whether the `<` at `start` of `bytes` (which hold what is buffered) starts markup inside the leaf
    /// element `leaf`: a comment, CDATA section or processing instruction, a JUnit element, or the leaf's own
    /// end tag. Anything else there is text. Reads at most 258 bytes past `start`.
    private static func startsMarkup(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, leaf: String?) -> Bool {
        guard start + 1 < bytes.count else { return false }
        let next = bytes[start + 1]
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return true }
        let nameStart = start + (next == UInt8(ascii: "/") ? 2 : 1)
        guard nameStart < bytes.count, isNameStart(bytes[nameStart]) else { return false }
        var nameEnd = nameStart + 1
        while nameEnd < bytes.count, nameEnd - nameStart < 256, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])
        if next == UInt8(ascii: "/"), let leaf, leaf.utf8.elementsEqual(name) { return true }
        return knownElementBytes.contains { $0.count == name.count && $0.elementsEqual(name) }
    }

    /// `startsMarkup` for the `<` at `position`.
    private func startsMarkupInLeaf() -> Bool {
        let available = ensure(260)
        let leaf = stack.last?.name
        return input.withUnsafeBufferPointer { buffer in
            Self.startsMarkup(
                in: UnsafeBufferPointer(rebasing: buffer[position..<(position + available)]), at: 0, leaf: leaf)
        }
    }

    /// Inside a leaf element, consumes the text up to the next markup in one pass: escapes each `<` that
    /// starts no markup and each `&` that starts no reference, and stands in for control characters, as
    /// `stepContent` does byte by byte (a hostile `<system-out>` holds millions). `false` when it leaves the
    /// byte at `position` to `stepContent`: markup, the last bytes of the input, or the first repair of the
    /// file (whose location is noted there). Text limits and locations are kept as `copy` keeps them.
    private func stepLeafText() -> Bool {
        let available = ensure(4096 + 260)
        var limit = available - 260
        if !dropping { limit = min(limit, textLimit - textRun) }
        guard limit > 0 else { return false }
        let leaf = stack.last?.name
        let firstRepairSeen = repairs.total > 0
        var text: [UInt8] = []
        var consumed = 0
        var lessThans = 0
        var ampersands = 0
        var controlCharacters = 0
        let dropping = dropping
        input.withUnsafeBufferPointer { whole in
            let buffer = UnsafeBufferPointer(rebasing: whole[position..<(position + available)])
            var runStart = 0
            /// Ends the run at `consumed` and writes `replacement` for the next `length` bytes.
            func substitute(_ replacement: [UInt8], length: Int) {
                if !dropping {
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<consumed]))
                    text.append(contentsOf: replacement)
                }
                consumed += length
                runStart = consumed
            }
            scan: while consumed < limit {
                let byte = buffer[consumed]
                switch byte {
                case UInt8(ascii: "<"):
                    guard firstRepairSeen, !Self.startsMarkup(in: buffer, at: consumed, leaf: leaf) else { break scan }
                    lessThans += 1
                    substitute(Self.lessThanReference, length: 1)
                case UInt8(ascii: "&"):
                    switch Self.classifyAmpersand(in: buffer, at: consumed) {
                    case .reference(let length):
                        consumed += length
                    case .illegalCharacter(let length, let value):
                        guard firstRepairSeen else { break scan }
                        controlCharacters += 1
                        substitute(Self.replacement(forCharacter: value), length: length)
                    case .bare:
                        guard firstRepairSeen else { break scan }
                        ampersands += 1
                        substitute(Self.ampersandReference, length: 1)
                    }
                case _ where Self.isForbiddenControl(byte):
                    guard firstRepairSeen else { break scan }
                    controlCharacters += 1
                    substitute(Self.standIns[Int(byte)], length: 1)
                default:
                    consumed += 1
                }
            }
            if !dropping { text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<consumed])) }
        }
        guard consumed > 0 else { return false }
        consume(consumed, writing: text)
        repairs.lessThans += lessThans
        repairs.ampersands += ampersands
        repairs.controlCharacters += controlCharacters
        return true
    }

    private func name(at offset: Int, length: Int) -> String {
        String(decoding: input[(position + offset)..<(position + offset + length)], as: UTF8.self)
    }

    // MARK: Repair

    private func step(until target: Int) {
        if !started {
            started = true
            ensure(4)
            if let first = peek(0), let second = peek(1),
                (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE)
            {
                passthrough = true  // UTF-16: leave it to the parser.
            }
        }
        if passthrough {
            let available = ensure(65536)
            if available == 0 {
                finished = true
                return
            }
            copy(available)
            return
        }
        guard let byte = peek(0) else {
            finish()
            return
        }
        switch state {
        case .content: stepContent(byte)
        case .tag: stepTag(byte)
        case .attributeValue(let quote): stepAttributeValue(byte, quote: quote)
        case .unquotedValue: stepUnquotedValue(byte)
        case .endTag:
            copy(1)
            if byte == UInt8(ascii: ">") { state = .content }
        case .comment: stepUntil("-->", byte: byte)
        case .cdata: stepUntil("]]>", byte: byte)
        case .processingInstruction: stepUntil("?>", byte: byte)
        case .declaration:
            // Dropped, not copied: a DTD could declare entities that expand without bound.
            advanceLocation(over: 1)
            position += 1
            bytesRead += 1
            if byte == 0x0A { hiddenLineFeeds += 1 }
            if byte == UInt8(ascii: "[") { declarationDepth += 1 }
            if byte == UInt8(ascii: "]"), declarationDepth > 0 { declarationDepth -= 1 }
            if byte == UInt8(ascii: ">"), declarationDepth == 0 { state = .content }
        }
    }

    private func finish() {
        finished = true
        let inside: String? =
            switch state {
            case .content: nil
            case .tag, .endTag: "a tag"
            case .attributeValue, .unquotedValue: "an attribute value"
            case .comment: "a comment"
            case .cdata: "a CDATA section"
            case .processingInstruction: "a processing instruction"
            case .declaration: "a declaration"
            }
        if inside != nil || !stack.isEmpty {
            truncation = Truncation(
                line: line, column: column, openElement: stack.last?.name ?? (pendingName.isEmpty ? nil : pendingName),
                openElementLine: stack.last?.line, inside: inside, parserLine: line - hiddenLineFeeds)
        }
    }

    /// Records an element opened by the start tag ending at `position`; past `maxDepth` open elements the
    /// input ends here instead (`depthExceeded`, `false`), before the parser sees the tag end, so that neither
    /// keeps a stack that grows with the file.
    private func open(_ name: String) -> Bool {
        guard stack.count < maxDepth else {
            depthExceeded = DepthExceeded(line: line, column: column, element: name)
            finished = true
            return false
        }
        stack.append((name, line))
        insideLeaf = Self.leafElements.contains(name)
        return true
    }

    /// The innermost open element is a leaf element (kept with `stack`).
    private var insideLeaf = false

    private func stepContent(_ byte: UInt8) {
        if insideLeaf, stepLeafText() { return }
        switch byte {
        case UInt8(ascii: "<") where insideLeaf && !startsMarkupInLeaf():
            escapeLessThan()
        case UInt8(ascii: "<"):
            if matches("<!--") {
                endTextRun()
                state = .comment
                copy(4)
            } else if matches("<![CDATA[") {
                endTextRun()
                state = .cdata
                copy(9)
                textRun = 0
            } else if matches("<?") {
                endTextRun()
                state = .processingInstruction
                copy(2)
            } else if matches("<!") {
                endTextRun()
                declarations += 1
                declarationDepth = 0
                state = .declaration
            } else if peek(1) == UInt8(ascii: "/") {
                let length = nameLength(at: 2)
                let closing = length > 0 ? name(at: 2, length: length) : ""
                if length > 0, !insideLeaf || closing == stack.last?.name || Self.knownElements.contains(closing) {
                    if let index = stack.lastIndex(where: { $0.name == closing }) {
                        stack.removeSubrange(index...)
                        insideLeaf = stack.last.map { Self.leafElements.contains($0.name) } ?? false
                    }
                    endTextRun()
                    state = .endTag
                    copy(2 + length)
                } else {
                    escapeLessThan()
                }
            } else {
                let length = nameLength(at: 1)
                let opening = length > 0 ? name(at: 1, length: length) : ""
                if length > 0, !insideLeaf || Self.knownElements.contains(opening) {
                    pendingName = opening
                    endTextRun()
                    state = .tag
                    copy(1 + length)
                } else {
                    escapeLessThan()
                }
            }
        case UInt8(ascii: "&"): stepAmpersand()
        default:
            copyRun(from: byte, limit: runLimit(ensure(4096))) { next in
                (next == UInt8(ascii: "<")) || (next == UInt8(ascii: "&")) || Self.isForbiddenControl(next)
            }
        }
    }

    /// Steps over `byte` when it is a forbidden control character; otherwise copies the run of bytes from
    /// it (at most `limit`) up to one that `stop` flags.
    @inline(__always)
    private func copyRun(from byte: UInt8, limit: @autoclosure () -> Int, until stop: (UInt8) -> Bool) {
        if Self.isForbiddenControl(byte) {
            stepControl(byte)
        } else {
            copy(runLength(limit: limit(), stop: stop))
        }
    }

    private func escapeLessThan() {
        noteRepair()
        repairs.lessThans += 1
        replace(1, with: Self.lessThanReference)
    }

    private func stepControl(_ byte: UInt8) {
        noteRepair()
        repairs.controlCharacters += 1
        replace(1, with: Self.standIns[Int(byte)])
    }

    /// An `&`: kept when it starts a predefined entity or a character reference, else escaped.
    private func stepAmpersand() {
        let available = ensure(260)
        let kind = input.withUnsafeBufferPointer { buffer in
            Self.classifyAmpersand(in: UnsafeBufferPointer(rebasing: buffer[position..<(position + available)]), at: 0)
        }
        switch kind {
        case .reference(let length):
            copy(length)
        case .illegalCharacter(let length, let value):
            noteRepair()
            repairs.controlCharacters += 1
            replace(length, with: Self.replacement(forCharacter: value))
        case .bare:
            noteRepair()
            repairs.ampersands += 1
            replace(1, with: Self.ampersandReference)
        }
    }

    /// What an `&` starts.
    private enum Ampersand {
        /// A predefined entity (`&amp;`) or a character reference to a character XML 1.0 allows: kept.
        case reference(length: Int)
        /// A character reference to one it forbids (`&#27;`): replaced, as raw control characters are.
        case illegalCharacter(length: Int, value: UInt32)
        /// Anything else: the `&` is text.
        case bare
    }

    private static let predefinedEntities = ["amp", "lt", "gt", "quot", "apos"].map { Array($0.utf8) }
    private static let ampersandReference = Array("&amp;".utf8)
    private static let replacementCharacter = Array("\u{FFFD}".utf8)

    /// The stand-in of a control character, U+FFFD for the other characters a reference may not name.
    private static func replacement(forCharacter value: UInt32) -> [UInt8] {
        value < 0x20 ? standIns[Int(value)] : replacementCharacter
    }

    /// Reads the `&` at `start` of `bytes` (what is buffered; at most 258 bytes past `start` are read).
    private static func classifyAmpersand(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Ampersand {
        func byte(_ offset: Int) -> UInt8? { start + offset < bytes.count ? bytes[start + offset] : nil }
        if byte(1) == UInt8(ascii: "#") {
            let hex = byte(2) == UInt8(ascii: "x")
            var length = hex ? 3 : 2
            var value: UInt32 = 0
            var digits = 0
            while let next = byte(length), digits < 10 {
                let digit: UInt32?
                switch next {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(next - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(next - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(next - UInt8(ascii: "A") + 10)
                default: digit = nil
                }
                guard let digit else { break }
                value = value &* (hex ? 16 : 10) &+ digit
                digits += 1
                length += 1
            }
            guard digits > 0, byte(length) == UInt8(ascii: ";") else { return .bare }
            length += 1
            let legal =
                value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
            return legal ? .reference(length: length) : .illegalCharacter(length: length, value: value)
        }
        guard let first = byte(1), isNameStart(first) else { return .bare }
        var nameLength = 1
        while nameLength < 256, let next = byte(1 + nameLength), isNameByte(next) { nameLength += 1 }
        guard byte(1 + nameLength) == UInt8(ascii: ";") else { return .bare }
        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(start + 1 + nameLength)])
        return predefinedEntities.contains { $0.elementsEqual(name) } ? .reference(length: 2 + nameLength) : .bare
    }

    private func stepTag(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: ">"):
            guard open(pendingName) else { return }
            copy(1)
            pendingName = ""
            state = .content
        case UInt8(ascii: "/") where peek(1) == UInt8(ascii: ">"):
            copy(2)
            pendingName = ""
            state = .content
        case UInt8(ascii: "="):
            copy(1)
            while let next = peek(0), Self.isSpace(next) { copy(1) }
            if let quote = peek(0), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                copy(1)
                state = .attributeValue(quote)
            } else if peek(0) != nil {
                noteRepair()
                repairs.quotes += 1
                output.append(UInt8(ascii: "\""))
                state = .unquotedValue
            }
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            copy(1)
            state = .attributeValue(byte)
        case UInt8(ascii: "<"):
            // A tag never closed: close it and read the '<' as content.
            noteRepair()
            repairs.lessThans += 1
            guard open(pendingName) else { return }
            output.append(UInt8(ascii: ">"))
            pendingName = ""
            state = .content
        default:
            copyRun(from: byte, limit: ensure(1024)) { next in
                (next == UInt8(ascii: ">")) || (next == UInt8(ascii: "/")) || (next == UInt8(ascii: "="))
                    || (next == UInt8(ascii: "\"")) || (next == UInt8(ascii: "'")) || (next == UInt8(ascii: "<"))
                    || Self.isForbiddenControl(next)
            }
        }
    }

    private func stepAttributeValue(_ byte: UInt8, quote: UInt8) {
        switch byte {
        case quote:
            if closesAttribute() {
                copy(1)
                state = .tag
            } else {
                noteRepair()
                repairs.quotes += 1
                replace(1, with: Array((quote == UInt8(ascii: "\"") ? "&quot;" : "&apos;").utf8))
            }
        case UInt8(ascii: "<"): escapeLessThan()
        case UInt8(ascii: "&"): stepAmpersand()
        case 0x09: replace(1, with: Array("&#9;".utf8))
        case 0x0A:
            hiddenLineFeeds += 1
            replace(1, with: Array("&#10;".utf8))
        case 0x0D: replace(1, with: Array("&#13;".utf8))
        default:
            copyRun(from: byte, limit: ensure(1024)) { next in
                (next == quote) || (next == UInt8(ascii: "<")) || (next == UInt8(ascii: "&")) || next < 0x20
            }
        }
    }

    private func stepUnquotedValue(_ byte: UInt8) {
        if Self.isSpace(byte) || byte == UInt8(ascii: ">")
            || (byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: ">"))
        {
            output.append(UInt8(ascii: "\""))
            state = .tag
            return
        }
        switch byte {
        case UInt8(ascii: "\""): replace(1, with: Array("&quot;".utf8))
        case UInt8(ascii: "<"): replace(1, with: Array("&lt;".utf8))
        case UInt8(ascii: "&"): stepAmpersand()
        default:
            if Self.isForbiddenControl(byte) { stepControl(byte) } else { copy(1) }
        }
    }

    /// Whether the quote at `position` ends its attribute value: the end of the tag or another
    /// `name=` follows (well-formed XML always has one of them).
    private func closesAttribute() -> Bool {
        ensure(512)
        var offset = 1
        var spaces = 0
        while let next = peek(offset), Self.isSpace(next), offset < 512 {
            offset += 1
            spaces += 1
        }
        guard let next = peek(offset) else { return true }
        if next == UInt8(ascii: ">") { return true }
        if next == UInt8(ascii: "/") || next == UInt8(ascii: "?"), peek(offset + 1) == UInt8(ascii: ">") { return true }
        guard spaces > 0 else { return false }
        let length = nameLength(at: offset)
        guard length > 0 else { return false }
        offset += length
        while let space = peek(offset), Self.isSpace(space), offset < 768 { offset += 1 }
        return peek(offset) == UInt8(ascii: "=")
    }

    private func stepUntil(_ terminator: StaticString, byte: UInt8) {
        if matches(terminator) {
            endTextRun()
            state = .content
            copy(terminator.utf8CodeUnitCount)
            endTextRun()
        } else if Self.isForbiddenControl(byte) {
            stepControl(byte)
        } else {
            let first = terminator.utf8Start[0]
            let length = runLength(limit: runLimit(ensure(4096))) { next in
                (next == first) || Self.isForbiddenControl(next)
            }
            copy(length)
        }
    }
}

/// An `InputStream` over an `XMLRepairReader`, so that `XMLParser(stream:)` pulls repaired bytes.
/// Calls `progress(bytesRead, size)` every 4 MiB of input and once at the end.
final class RepairingInputStream: InputStream {
    let reader: XMLRepairReader
    private let size: Int64
    private let progress: (@Sendable (Int64, Int64) -> Void)?
    private var finalReported = false

    init(reader: XMLRepairReader, size: Int64 = 0, progress: (@Sendable (Int64, Int64) -> Void)? = nil) {
        self.reader = reader
        self.size = size
        self.progress = progress
        super.init(data: Data())
        if let progress { reader.progress = { progress($0, size) } }
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        let count = reader.read(into: buffer, maxLength: len)
        if let progress, count == 0, !finalReported {
            finalReported = true
            progress(reader.bytesRead, size)
        }
        return count
    }

    override var hasBytesAvailable: Bool { !reader.finished }
    override func open() {}
    override func close() {}
    override var streamStatus: Stream.Status { reader.finished ? .atEnd : .open }
    override var streamError: (any Error)? { nil }
}
