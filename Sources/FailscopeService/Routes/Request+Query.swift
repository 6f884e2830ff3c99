import Foundation
import HTTPRouting

/// The query parameters every route reads the same way.
extension Request {
    /// The query parameter `name`, `nil` when absent.
    ///
    /// - Throws: 400 `invalid_parameter` when it is given more than once (`days=14&days=0` is ambiguous; no
    ///   value is picked silently).
    func queryValue(_ name: String) throws -> String? {
        let values = query.values(for: name)
        guard values.count <= 1 else { throw ServiceError.invalidParameter("\(name) is given more than once.") }
        return values.first
    }

    /// A filter parameter: `nil` when absent or empty (`project=` means no project filter, as on every list).
    func filterValue(_ name: String) throws -> String? {
        guard let value = try queryValue(name), !value.isEmpty else { return nil }
        return value
    }

    /// The whole-number query parameter `name`, `value` when absent.
    ///
    /// - Throws: 400 `invalid_parameter` when it is not a whole number in `range`, or is given more than once.
    func queryInteger(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = try queryValue(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ServiceError.invalidParameter(
                "\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound).")
        }
        return number
    }
}
