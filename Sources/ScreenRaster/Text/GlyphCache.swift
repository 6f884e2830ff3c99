import CFreeType

/// Weight of a face: DejaVu Sans has regular and bold (semibold text uses bold).
enum FontWeight: Int, Hashable, Sendable {
    case regular = 0
    case bold = 1
}

/// A face at a size in whole pixels (the em size, FreeType's pixel size).
struct FontSpec: Hashable, Sendable {
    var weight: FontWeight
    var pixelSize: Int
}

/// A rendered glyph: an 8-bit coverage bitmap and where it sits relative to the pen on the baseline.
struct Glyph {
    /// FreeType glyph index (for kerning).
    var index: UInt32
    var width: Int
    var height: Int
    /// Pixels from the pen to the bitmap's left edge.
    var left: Int
    /// Pixels from the baseline up to the bitmap's top edge.
    var top: Int
    /// Horizontal advance in pixels (fractional).
    var advance: Double
    /// `width × height` coverage values, rows top to bottom.
    var bitmap: [UInt8]
}

/// Vertical metrics of a `FontSpec` in pixels (FreeType's scaled size metrics).
struct FontMetrics {
    /// Baseline to the top of the tallest glyphs (positive).
    var ascender: Double
    /// Baseline to the bottom of the lowest glyphs (positive).
    var descender: Double
    /// Baseline-to-baseline distance.
    var lineHeight: Double
}

/// FreeType faces and a cache of rendered glyphs and metrics.
///
/// Glyphs are rendered with `FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT` (anti-aliased 8-bit coverage,
/// light hinting: vertical only, which keeps advances true to the design). Not thread-safe: the
/// owner (`ScreenRenderer`) serializes access.
final class GlyphCache {
    private var library: FT_Library?
    private var faces: [FT_Face?] = []
    private var currentSize: [Int] = []
    private var glyphs: [GlyphKey: Glyph] = [:]
    private var metricsCache: [FontSpec: FontMetrics] = [:]
    private var kerning: [Bool] = []

    private struct GlyphKey: Hashable {
        var spec: FontSpec
        var scalar: UInt32
    }

    /// Opens both faces of `fonts`.
    /// - Throws: `FontError.freeType` when FreeType cannot start or open a file.
    init(fonts: FontSet) throws(FontError) {
        var lib: FT_Library?
        let status = FT_Init_FreeType(&lib)
        guard status == 0, let lib else { throw FontError.freeType(code: status, path: "") }
        library = lib
        for path in [fonts.regular, fonts.bold] {
            var face: FT_Face?
            let error = FT_New_Face(lib, path, 0, &face)
            guard error == 0, let face else {
                throw FontError.freeType(code: error, path: path)  // deinit frees what was opened
            }
            faces.append(face)
            currentSize.append(0)
            kerning.append((face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0)
        }
    }

    deinit {
        for face in faces where face != nil { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// Most glyphs kept (a few MB): text from tests is untrusted, and a run that shows thousands of
    /// distinct characters at many sizes must not grow the cache without bound. Full means start over.
    static let capacity = 8_192

    /// Number of glyphs rendered and kept.
    var count: Int { glyphs.count }

    private func face(for spec: FontSpec) -> FT_Face {
        let i = spec.weight.rawValue
        let face = faces[i]!
        if currentSize[i] != spec.pixelSize {
            FT_Set_Pixel_Sizes(face, 0, FT_UInt(spec.pixelSize))
            currentSize[i] = spec.pixelSize
        }
        return face
    }

    func metrics(_ spec: FontSpec) -> FontMetrics {
        if let cached = metricsCache[spec] { return cached }
        let m = face(for: spec).pointee.size.pointee.metrics
        let metrics = FontMetrics(
            ascender: Double(m.ascender) / 64, descender: Double(-m.descender) / 64,
            lineHeight: Double(m.height) / 64)
        metricsCache[spec] = metrics
        return metrics
    }

    /// The glyph for `scalar` (the face's missing-glyph box when the font lacks it).
    func glyph(_ scalar: Unicode.Scalar, _ spec: FontSpec) -> Glyph {
        let key = GlyphKey(spec: spec, scalar: scalar.value)
        if let cached = glyphs[key] { return cached }
        let face = face(for: spec)
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        var glyph = Glyph(index: index, width: 0, height: 0, left: 0, top: 0, advance: 0, bitmap: [])
        if FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_RENDER) | FS_FT_LOAD_TARGET_LIGHT) == 0,
            let slot = face.pointee.glyph
        {
            let bitmap = slot.pointee.bitmap
            glyph.width = Int(bitmap.width)
            glyph.height = Int(bitmap.rows)
            glyph.left = Int(slot.pointee.bitmap_left)
            glyph.top = Int(slot.pointee.bitmap_top)
            glyph.advance = Double(slot.pointee.advance.x) / 64
            if glyph.width > 0, glyph.height > 0, let buffer = bitmap.buffer {
                var pixels = [UInt8](repeating: 0, count: glyph.width * glyph.height)
                let pitch = Int(bitmap.pitch)
                for row in 0..<glyph.height {
                    // A negative pitch means rows are stored bottom-up (FreeType's FT_Bitmap).
                    let source = pitch >= 0 ? buffer + row * pitch : buffer + (glyph.height - 1 - row) * -pitch
                    for column in 0..<glyph.width { pixels[row * glyph.width + column] = source[column] }
                }
                glyph.bitmap = pixels
            }
        }
        if glyphs.count >= GlyphCache.capacity { glyphs.removeAll(keepingCapacity: true) }
        glyphs[key] = glyph
        return glyph
    }

    /// Kerning between two glyph indices in pixels (0 when the face has no kerning table).
    func kerning(_ left: UInt32, _ right: UInt32, _ spec: FontSpec) -> Double {
        guard kerning[spec.weight.rawValue], left != 0, right != 0 else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face(for: spec), left, right, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 else {
            return 0
        }
        return Double(delta.x) / 64
    }
}
