import Foundation

/// The JSON coding every Failscope producer and consumer uses on the wire and in the spool.
///
/// Dates are ISO 8601 in UTC with fractional seconds (`2026-11-30T04:27:58.123Z`, RFC 3339); a date
/// without fractional seconds is accepted on input. Keys are the Swift property names (camelCase).
/// Durations are seconds as `Double`.
public enum WireCoding {
    /// An encoder with ISO 8601 dates and sorted keys: the same value always gives the same bytes
    /// (element-tree artifacts are deduplicated by their hash; the service's run-page writer
    /// produces these exact bytes).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    /// A decoder accepting ISO 8601 dates with or without fractional seconds.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw WireValueError.decodingError(expected: "an ISO 8601 date (2026-11-30T04:27:58Z)", at: decoder)
            }
            return date
        }
        return decoder
    }

    /// Formats a date as ISO 8601 UTC with milliseconds: `2026-11-30T04:27:58.125Z` (rounded to the
    /// nearest millisecond, as the store keeps times, so a parsed date formats back to the same text).
    /// Hand-written from the civil-from-days algorithm (H. Hinnant, "chrono-Compatible
    /// Low-Level Date Algorithms"): the reporter formats a date for every result it spools, and
    /// `Date.ISO8601FormatStyle` costs several microseconds a call.
    public static func formatDate(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, dayMilliseconds) = floorDivision(milliseconds, 86_400_000)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(48 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4)
        bytes.append(45)
        append(month, digits: 2)
        bytes.append(45)
        append(day, digits: 2)
        bytes.append(84)
        append(dayMilliseconds / 3_600_000, digits: 2)
        bytes.append(58)
        append(dayMilliseconds / 60_000 % 60, digits: 2)
        bytes.append(58)
        append(dayMilliseconds / 1000 % 60, digits: 2)
        bytes.append(46)
        append(dayMilliseconds % 1000, digits: 3)
        bytes.append(90)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Parses ISO 8601 with or without fractional seconds; `nil` when the text is not such a date.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
