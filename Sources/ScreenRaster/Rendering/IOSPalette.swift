/// The iOS light-appearance colours the renderer uses (UIKit's system colours, light mode,
/// translucent ones composited over white).
enum IOSPalette {
    /// `systemBackground`.
    static let background = RGBAColor(hex: 0xFFFFFF)
    /// `secondarySystemBackground` / `systemGroupedBackground`.
    static let groupedBackground = RGBAColor(hex: 0xF2F2F7)
    /// `label`.
    static let label = RGBAColor(hex: 0x000000)
    /// `secondaryLabel` (#3C3C43 at 60 %) over white.
    static let secondaryLabel = RGBAColor(hex: 0x8A8A8E)
    /// `placeholderText` (#3C3C43 at 30 %) over white.
    static let placeholder = RGBAColor(hex: 0xC5C5C7)
    /// `systemBlue`, the default tint.
    static let tint = RGBAColor(hex: 0x007AFF)
    /// `systemRed`.
    static let red = RGBAColor(hex: 0xFF3B30)
    /// `systemGreen`, a switch that is on.
    static let green = RGBAColor(hex: 0x34C759)
    /// `separator` (opaque form).
    static let separator = RGBAColor(hex: 0xC6C6C8)
    /// `systemGray4`: text field borders.
    static let fieldBorder = RGBAColor(hex: 0xD1D1D6)
    /// `systemGray5`: disabled filled buttons, image placeholders.
    static let fill = RGBAColor(hex: 0xE5E5EA)
    /// `systemGray2`: the image placeholder glyph.
    static let glyph = RGBAColor(hex: 0xAEAEB2)
    /// `tertiaryLabel` over white: disabled text.
    static let disabledLabel = RGBAColor(hex: 0xC4C4C6)
    /// A switch that is off: `systemFill` (#787880 at 20 %) over white.
    static let switchOff = RGBAColor(hex: 0xE9E9EA)
    /// The picker's selection band: `tertiarySystemFill` (#767680 at 12 %) over white.
    static let pickerSelection = RGBAColor(hex: 0xEFEFF0)
    /// A selected table cell: `systemGray4`.
    static let selectedCell = RGBAColor(hex: 0xD1D1D6)
    /// A bar's background (the opaque standard appearance of `UINavigationBar`).
    static let bar = RGBAColor(hex: 0xF9F9F9)
    /// An alert's box.
    static let alertBackground = RGBAColor(hex: 0xF2F2F2)
    /// The dimming behind an alert: black at 20 %.
    static let dimming = RGBAColor(hex: 0x000000, opacity: 0.2)
}
