/// How an element looks, for the renderer: a hint the app sets, never used by queries.
///
/// Buttons: `plain` (tinted text), `filled` (tinted rounded rectangle, white text), `destructive`
/// (red text). Text: `largeTitle` 34 pt bold, `title` 28 pt bold, `headline` 17 pt semibold,
/// `body` 17 pt, `secondary` 15 pt grey, `caption` 12 pt grey, `error` 15 pt red.
public enum ElementStyle: String, Codable, Sendable, Hashable {
    case plain
    case filled
    case destructive
    case largeTitle
    case title
    case headline
    case body
    case secondary
    case caption
    case error
}

extension ElementStyle {
    /// The type size in points (before the renderer's `TextMetrics.fontScale`).
    public var pointSize: Double {
        switch self {
        case .largeTitle: 34
        case .title: 28
        case .headline, .body, .plain, .filled, .destructive: 17
        case .secondary, .error: 15
        case .caption: 12
        }
    }

    /// Whether the text is drawn in the bold face (DejaVu Sans has no semibold: headlines use bold).
    public var isBold: Bool {
        switch self {
        case .largeTitle, .title, .headline, .filled: true
        case .plain, .destructive, .body, .secondary, .caption, .error: false
        }
    }
}
