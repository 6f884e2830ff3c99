import Foundation

/// Dates in the database: INTEGER milliseconds since 1970-01-01 UTC (rounded to the nearest ms).
enum Timestamp {
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
