import Foundation

/// Durations as test reports write them, in seconds.
///
/// Accepts what real reports contain (testng#198, junit-framework#1381, SUREFIRE-28):
/// plain decimals (`0.5`), scientific notation (`1.4e-05`), a decimal comma (`0,160`), thousands
/// separators (`1,234.245`, `14.029,255`), a unit suffix (`0,26s`, `12 sec`, `Ran for 2,6 seconds`), and
/// xcresulttool's minutes and hours (`1m 3,01s`, `6m`, `1h 2m`). A comma alone is a decimal comma
/// (`1,234` is 1.234 s) unless it appears more than once (`1,234,567`); when both `,` and `.` occur the
/// last one is the decimal separator. Negative or non-finite values are rejected.
public enum ReportDuration {
    /// Seconds for `text`, or `nil` when it is not a duration (absent, empty, `<<computed>>`, `NaN`).
    public static func seconds(_ text: String?) -> Double? {
        guard let text else { return nil }
        // The common case, a plain or scientific number, without Foundation string work.
        if let value = Double(text) { return value.isFinite && value >= 0 ? value : nil }
        return parse(trimmed(text))
    }

    /// `text` without leading and trailing ASCII whitespace (cheaper than Foundation's trimming).
    private static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    private static func parse(_ trimmed: String) -> Double? {
        var text = trimmed
        guard !text.isEmpty else { return nil }
        if text.lowercased().hasPrefix("ran for ") { text = String(text.dropFirst(8)) }
        // Unit-bearing forms: "1h 2m 3,5s", "6m", "0,26s", "2.6 seconds", "12 sec", "150ms".
        let parts = text.split(whereSeparator: { $0 == " " })
        if parts.count > 1 || text.last.map({ $0.isLetter }) == true {
            var total = 0.0
            var index = 0
            let words = parts.map(String.init)
            while index < words.count {
                var word = words[index]
                index += 1
                var unit = ""
                while let last = word.last, last.isLetter {
                    unit = String(last) + unit
                    word.removeLast()
                }
                if unit.isEmpty, index < words.count, words[index].allSatisfy(\.isLetter) {
                    unit = words[index]
                    index += 1
                }
                guard let number = plainNumber(word) else { return nil }
                switch unit.lowercased() {
                case "ms", "msec", "milliseconds", "millisecond": total += number / 1000
                case "s", "sec", "secs", "second", "seconds", "": total += number
                case "m", "min", "mins", "minute", "minutes": total += number * 60
                case "h", "hr", "hour", "hours": total += number * 3600
                default: return nil
                }
            }
            return total.isFinite && total >= 0 ? total : nil
        }
        return plainNumber(text)
    }

    /// A bare number with `.`/`,` decimal and grouping separators or an exponent; `nil` otherwise.
    static func plainNumber(_ raw: String) -> Double? {
        // Keep digits, separators, exponent and sign; drop spaces, NBSP, NNBSP, ' and _ used as grouping.
        var bytes: [UInt8] = []
        var commas = 0
        var dots = 0
        var lastComma = -1
        var lastDot = -1
        var digits = false
        for scalar in raw.unicodeScalars {
            switch scalar {
            case "0"..."9":
                digits = true
                bytes.append(UInt8(scalar.value))
            case ",":
                commas += 1
                lastComma = bytes.count
                bytes.append(UInt8(ascii: ","))
            case ".":
                dots += 1
                lastDot = bytes.count
                bytes.append(UInt8(ascii: "."))
            case "e", "E", "+", "-": bytes.append(UInt8(scalar.value))
            case " ", "\u{00A0}", "\u{202F}", "'", "_": continue
            default: return nil
            }
        }
        guard digits else { return nil }
        let decimal: UInt8?  // the separator that is the decimal point; the other one groups thousands
        if commas > 0 && dots > 0 {
            decimal = lastComma > lastDot ? UInt8(ascii: ",") : UInt8(ascii: ".")
        } else if commas == 1 {
            decimal = UInt8(ascii: ",")
        } else if dots == 1 {
            decimal = UInt8(ascii: ".")
        } else {
            decimal = nil  // none, or several of one kind: grouping
        }
        var normalized: [UInt8] = []
        for byte in bytes {
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: ".") {
                if byte == decimal { normalized.append(UInt8(ascii: ".")) }
            } else {
                normalized.append(byte)
            }
        }
        guard let value = Double(String(decoding: normalized, as: UTF8.self)), value.isFinite, value >= 0 else {
            return nil
        }
        return value
    }
}
