/// Text widths as the simulated screen's renderer will draw them, known to the layout without a font
/// library: DejaVu Sans (regular and bold) advance widths for printable ASCII, in font units.
///
/// The layout sizes labels and buttons from these widths, so a short title of wide letters gets the
/// frame its glyphs need (an average width per character made "Mug" a frame too narrow, drawn "M…").
/// Kerning is left out (DejaVu's pairs change a line by a few hundredths of an em). Characters outside
/// U+0020–U+007E count as the face's average lowercase advance. The table is the fonts' `hmtx`
/// advances; `ScreenRasterTests` checks it against FreeType's reading of the installed fonts.
public enum TextMetrics {
    /// The renderer draws text at this fraction of its point size (DejaVu Sans is wider than SF Pro:
    /// at 0.92 it fills about the width iOS text fills).
    public static let fontScale = 0.92

    /// DejaVu Sans's design units per em.
    public static let unitsPerEm = 2048

    /// The first character of the tables (space, U+0020); they run to `~` (U+007E).
    public static let firstTabulated: UInt32 = 0x20

    /// Advance widths of U+0020…U+007E in DejaVuSans.ttf, font units.
    public static let regularAdvances: [UInt16] = [
        651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,
        1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087,
        2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612,
        1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024,
        1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253,
        1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
    ]

    /// Advance widths of U+0020…U+007E in DejaVuSans-Bold.ttf, font units.
    public static let boldAdvances: [UInt16] = [
        713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748,
        1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188,
        2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741,
        1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024,
        1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134, 1458, 1407,
        1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716,
    ]

    /// The average lowercase advance (a–z) of each face, font units: the width of any other character.
    static let regularFallback = 1154
    static let boldFallback = 1303

    /// The width in points of `text` drawn on one line at `pointSize` (bold or regular) on a screen of
    /// `scale` pixels a point, as the renderer draws it: at a whole pixel size (`pointSize × fontScale ×
    /// scale`, rounded), each advance rounded to a whole pixel as FreeType's hinting does; kerning not
    /// included (it only narrows DejaVu's text).
    public static func width(of text: String, pointSize: Double, bold: Bool, scale: Double) -> Double {
        let table = bold ? boldAdvances : regularAdvances
        let fallback = bold ? boldFallback : regularFallback
        let pixelsPerEm = max(1, (pointSize * fontScale * scale).rounded())
        var pixels = 0.0
        for scalar in text.unicodeScalars {
            let index = Int(scalar.value) - Int(firstTabulated)
            let units = table.indices.contains(index) ? Int(table[index]) : fallback
            pixels += (Double(units) * pixelsPerEm / Double(unitsPerEm)).rounded()
        }
        return pixels / scale
    }
}
