/// A picker wheel's value as iOS reports it, `"Blue, 3 of 7"`, taken apart.
///
/// Source: the `value` of an `XCUIElementTypePickerWheel` is the selected title, a comma, and the
/// 1-based position of the selection among the wheel's values (seed 002 parses it the same way).
public struct PickerWheelValue: Sendable, Equatable {
    public var selected: String
    /// 1-based position of `selected`.
    public var position: Int
    public var count: Int

    public init(selected: String, position: Int, count: Int) {
        self.selected = selected
        self.position = position
        self.count = count
    }

    /// Parses `"Blue, 3 of 7"`; `nil` when the text has another shape. The selected title may
    /// itself contain commas: the position is read from the last comma.
    public init?(_ text: String) {
        guard let comma = text.lastIndex(of: ",") else { return nil }
        let numbers = text[text.index(after: comma)...].split(separator: " ")
        guard numbers.count == 3, numbers[1] == "of", let position = Int(numbers[0]), let count = Int(numbers[2]),
            (1...count).contains(position)
        else { return nil }
        self.init(selected: String(text[..<comma]), position: position, count: count)
    }
}
