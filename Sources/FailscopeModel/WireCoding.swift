import Foundation

/// The JSON coding every Failscope producer and consumer uses on the wire and in the spool.
///
/// Dates are ISO 8601 in UTC with fractional seconds (`2026-11-30T04:27:58.123Z`, RFC 3339); a date
/// without fractional seconds is accepted on input. Keys are the Swift property names (camelCase).
/// Durations are seconds as `Double`.
public enum WireCoding {
    /// An encoder with ISO 8601 dates and sorted keys (stable bytes for the same value).
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
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 date, got \"\(text.prefix(40))\"")
            }
            return date
        }
        return decoder
    }

    /// Formats a date as ISO 8601 UTC with milliseconds.
    public static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Parses ISO 8601 with or without fractional seconds; `nil` when the text is not such a date.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
