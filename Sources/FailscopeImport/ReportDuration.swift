import Foundation

/// Durations as test reports write them, in seconds.
///
/// Accepts what real reports contain (cases README §5 #11; testng#198, junit-framework#1381, SUREFIRE-28):
/// plain decimals (`0.5`), scientific notation (`1.4e-05`), a decimal comma (`0,160`), thousands
/// separators (`1,234.245`, `14.029,255`), a unit suffix (`0,26s`, `12 sec`, `Ran for 2,6 seconds`), and
/// xcresulttool's minutes and hours (`1m 3,01s`, `6m`, `1h 2m`). A comma alone is a decimal comma
/// (`1,234` is 1.234 s) unless it appears more than once (`1,234,567`); when both `,` and `.` occur the
/// last one is the decimal separator. Negative or non-finite values are rejected.
public enum ReportDuration {
    /// Seconds for `text`, or `nil` when it is not a duration (absent, empty, `<<computed>>`, `NaN`).
    public static func seconds(_ text: String?) -> Double? {
        guard var text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
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
        var text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        text = text.replacingOccurrences(of: "\u{00A0}", with: "").replacingOccurrences(of: "\u{202F}", with: "")
            .replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "_", with: "")
        let allowed = Set("0123456789.,eE+-")
        guard text.allSatisfy({ allowed.contains($0) }), text.contains(where: \.isNumber) else { return nil }
        let commas = text.filter { $0 == "," }.count
        let dots = text.filter { $0 == "." }.count
        if commas > 0 && dots > 0 {
            let lastComma = text.lastIndex(of: ",")!
            let lastDot = text.lastIndex(of: ".")!
            if lastComma > lastDot {
                text = text.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
            } else {
                text = text.replacingOccurrences(of: ",", with: "")
            }
        } else if commas == 1 {
            text = text.replacingOccurrences(of: ",", with: ".")
        } else if commas > 1 {
            text = text.replacingOccurrences(of: ",", with: "")
        } else if dots > 1 {
            text = text.replacingOccurrences(of: ".", with: "")
        }
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return value
    }
}
