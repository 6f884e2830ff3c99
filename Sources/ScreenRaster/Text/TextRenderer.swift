/// Lays out and draws text with a `GlyphCache`: measuring, word wrapping, tail truncation with `…`.
///
/// Pen positions accumulate in fractional pixels and each glyph lands on the nearest whole pixel;
/// every glyph of a line shares one baseline row.
struct TextRenderer {
    let cache: GlyphCache

    static let ellipsis: Character = "…"

    /// The advance width of `text` in pixels, kerning included.
    func width(of text: Substring, _ spec: FontSpec) -> Double {
        var pen = 0.0
        var previous: UInt32 = 0
        for scalar in text.unicodeScalars {
            let glyph = cache.glyph(scalar, spec)
            pen += cache.kerning(previous, glyph.index, spec) + glyph.advance
            previous = glyph.index
        }
        return pen
    }

    func width(of text: String, _ spec: FontSpec) -> Double { width(of: text[...], spec) }

    /// `text` cut at the end and followed by `…` so that it fits `maxWidth` pixels; `text` itself when it fits.
    /// Measures only as far as the line reaches, so a huge string costs no more than a short one.
    func truncated(_ text: Substring, _ spec: FontSpec, maxWidth: Double) -> String {
        let whole = prefixThatFits(text, spec, maxWidth: maxWidth)
        if whole.endIndex == text.endIndex { return String(text) }
        let ellipsisWidth = width(of: String(TextRenderer.ellipsis), spec)
        var kept = prefixThatFits(text, spec, maxWidth: maxWidth - ellipsisWidth)
        while kept.last?.isWhitespace == true { kept = kept.dropLast() }
        return String(kept) + String(TextRenderer.ellipsis)
    }

    /// The longest prefix of `text` (whole characters) whose width is at most `maxWidth` pixels.
    private func prefixThatFits(_ text: Substring, _ spec: FontSpec, maxWidth: Double) -> Substring {
        var pen = 0.0
        var previous: UInt32 = 0
        var index = text.startIndex
        while index < text.endIndex {
            var advance = 0.0
            var last = previous
            for scalar in text[index].unicodeScalars {
                let glyph = cache.glyph(scalar, spec)
                advance += cache.kerning(last, glyph.index, spec) + glyph.advance
                last = glyph.index
            }
            if pen + advance > maxWidth { break }
            pen += advance
            previous = last
            index = text.index(after: index)
        }
        return text[..<index]
    }

    /// Breaks `text` into at most `maxLines` lines of at most `maxWidth` pixels: at spaces, at `\n`, and
    /// inside a word only when the word alone is too wide. Text left over after the last line is
    /// dropped and the last line ends with `…`.
    func lines(_ text: String, _ spec: FontSpec, maxWidth: Double, maxLines: Int) -> [String] {
        guard maxLines > 0, !text.isEmpty else { return [] }
        var result: [String] = []
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (p, paragraph) in paragraphs.enumerated() {
            var rest = paragraph.drop(while: { $0 == " " })
            repeat {
                if result.count == maxLines - 1 {
                    // The last allowed line takes everything left, truncated.
                    var remaining = String(rest)
                    for later in paragraphs[(p + 1)...] { remaining += " " + later }
                    result.append(truncated(remaining[...], spec, maxWidth: maxWidth))
                    return result
                }
                let line = breakLine(rest, spec, maxWidth: maxWidth)
                result.append(String(line).trimmingTrailingSpaces())
                rest = rest[line.endIndex...].drop(while: { $0 == " " })
            } while !rest.isEmpty
        }
        return result
    }

    /// The longest prefix of `text` that fits, ending at a space when one exists.
    private func breakLine(_ text: Substring, _ spec: FontSpec, maxWidth: Double) -> Substring {
        guard !text.isEmpty else { return text }
        var lastSpace: Substring.Index? = nil
        var end = text.startIndex
        var pen = 0.0
        var previous: UInt32 = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            var advance = 0.0
            for scalar in character.unicodeScalars {
                let glyph = cache.glyph(scalar, spec)
                advance += cache.kerning(previous, glyph.index, spec) + glyph.advance
                previous = glyph.index
            }
            if pen + advance > maxWidth && !character.isWhitespace { break }
            if character == " " { lastSpace = index }
            pen += advance
            index = text.index(after: index)
            end = index
        }
        if end == text.endIndex { return text }  // all of it fits
        if let lastSpace, lastSpace > text.startIndex { return text[..<lastSpace] }
        if end == text.startIndex { end = text.index(after: end) }  // at least one character per line
        return text[..<end]
    }

    /// Draws one line with its pen starting at `x` pixels and its baseline on row `baseline`.
    func draw(_ text: String, _ spec: FontSpec, x: Double, baseline: Int, color: RGBAColor, on canvas: inout Canvas) {
        var pen = x
        var previous: UInt32 = 0
        for scalar in text.unicodeScalars {
            let glyph = cache.glyph(scalar, spec)
            pen += cache.kerning(previous, glyph.index, spec)
            previous = glyph.index
            if !glyph.bitmap.isEmpty {
                canvas.blend(
                    mask: glyph.bitmap, maskWidth: glyph.width, maskHeight: glyph.height,
                    x: Int(pixel: pen.rounded()) + glyph.left, y: baseline - glyph.top, color: color)
            }
            pen += glyph.advance
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
