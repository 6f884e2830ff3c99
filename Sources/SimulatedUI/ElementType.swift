/// The type of an element on the simulated screen, as `XCUIElement.ElementType`.
///
/// `any` matches every type in queries (`descendants(matching: .any)`); no element has it.
public enum ElementType: String, Codable, Sendable, Hashable, CaseIterable {
    case any
    case application
    case window
    case navigationBar
    case button
    case staticText
    case textField
    case secureTextField
    case image
    case `switch`
    case picker
    case pickerWheel
    case table
    case collectionView
    case cell
    case scrollView
    case alert
    case activityIndicator
    case other

    /// Whether the element scrolls its children (a viewport that clips them).
    public var isScrollContainer: Bool {
        self == .table || self == .collectionView || self == .scrollView
    }
}
