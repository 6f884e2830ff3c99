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
