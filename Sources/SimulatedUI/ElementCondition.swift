/// A condition to wait for on an element, as the `NSPredicate`s XCUITest waits use
/// (`exists == true`, `isHittable == true`, `label == "…"`); Linux has no `NSPredicate`.
public enum ElementCondition: Sendable, Equatable, CustomStringConvertible {
    case exists
    case doesNotExist
    case hittable
    case enabled
    case labelEquals(String)
    case valueEquals(String)

    public var description: String {
        switch self {
        case .exists: "exists"
        case .doesNotExist: "does not exist"
        case .hittable: "is hittable"
        case .enabled: "is enabled"
        case .labelEquals(let label): "has label '\(label)'"
        case .valueEquals(let value): "has value '\(value)'"
        }
    }

    /// Whether the condition holds for the matches of a query now.
    func holds(for matches: [ElementNode]) -> Bool {
        switch self {
        case .exists: !matches.isEmpty
        case .doesNotExist: matches.isEmpty
        case .hittable: matches.first?.isHittable == true
        case .enabled: matches.first?.isEnabled == true
        case .labelEquals(let label): matches.first?.label == label
        case .valueEquals(let value): matches.first?.value == value
        }
    }
}
