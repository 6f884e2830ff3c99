import Foundation
import SimulatedUI

/// One render of one screen: walks the element tree and paints each element in iOS's light style.
///
/// Geometry comes in points and is converted here: `pixels(_:)` for element frames (the documented
/// rounded mapping), `scale × points` for everything inside an element.
struct ScreenPainter {
    let device: Device
    let scale: Double
    let text: TextRenderer
    var canvas: Canvas
    /// Alerts found during the walk, painted last over a dimmed screen.
    private var alerts: [ElementSnapshot] = []

    /// Type sizes are scaled by this so that text fills frames about as it does on iOS (the layout's
    /// widths use the same factor).
    static let fontScale = TextMetrics.fontScale

    /// How far a single line of text may shrink to fit its frame before it is truncated with `…`.
    static let minimumScaleFactor = 0.85

    /// Bounds on a device's geometry, so that a corrupt snapshot cannot trap or exhaust memory: the
    /// scale is kept within 1...4 and the canvas within 1...10,000 pixels a side.
    static let maxScale = 4
    static let maxSide = 10_000

    /// What an element inherits from its ancestors.
    struct Context {
        var disabled = false
        var parent: ElementType? = nil
        var inAlert = false
        var inNavigationBar = false
        var alertFrame: CGRect = .zero
    }

    init(device: Device, text: TextRenderer) {
        self.device = device
        let scale = Swift.max(1, Swift.min(ScreenPainter.maxScale, device.scale))
        self.scale = Double(scale)
        self.text = text
        let width = Int(pixel: (device.width * Double(scale)).rounded())
        let height = Int(pixel: (device.height * Double(scale)).rounded())
        self.canvas = Canvas(
            width: Swift.max(1, Swift.min(ScreenPainter.maxSide, width)),
            height: Swift.max(1, Swift.min(ScreenPainter.maxSide, height)), background: IOSPalette.background)
    }

    /// Paints the whole screen.
    mutating func paint(_ root: ElementSnapshot) {
        draw(root, Context())
        drawStatusBar()
        drawHomeIndicator()
        for alert in alerts {
            let saved = canvas.suspendClips()
            canvas.fill(canvas.bounds, color: IOSPalette.dimming)
            var context = Context()
            context.inAlert = true
            context.alertFrame = alert.frame
            drawAlertBox(alert)
            for child in alert.children { draw(child, childContext(of: alert, context)) }
            canvas.restoreClips(saved)
        }
    }

    // MARK: The walk

    private func childContext(of element: ElementSnapshot, _ context: Context) -> Context {
        var c = context
        c.disabled = context.disabled || !element.isEnabled
        c.parent = element.elementType
        if element.elementType == .navigationBar { c.inNavigationBar = true }
        return c
    }

    private mutating func draw(_ element: ElementSnapshot, _ context: Context) {
        if element.elementType == .alert && !context.inAlert {
            alerts.append(element)
            return
        }
        let rect = pixels(element.frame)
        // Skip what lies wholly outside the current clip (cells scrolled out of the viewport).
        if element.elementType != .application && element.elementType != .window
            && rect.intersection(canvas.clipRect).isEmpty && !rect.isEmpty
        {
            return
        }
        let disabled = context.disabled || !element.isEnabled
        switch element.elementType {
        case .application: break  // the canvas starts filled with the background
        case .window, .any, .other, .picker, .alert: break
        case .navigationBar: drawNavigationBar(element)
        case .button: drawButton(element, context, disabled: disabled)
        case .staticText: drawStaticText(element, context, disabled: disabled)
        case .textField, .secureTextField: drawTextField(element, disabled: disabled)
        case .image: drawImage(element, disabled: disabled)
        case .switch: drawSwitch(element, disabled: disabled)
        case .pickerWheel: drawPickerWheel(element, disabled: disabled)
        // Scroll containers show the screen's background (already there); they only clip.
        case .table, .collectionView, .scrollView: break
        case .cell: drawCell(element, context, disabled: disabled)
        case .activityIndicator: drawActivityIndicator(element)
        }
        guard !element.children.isEmpty else { return }
        let clips = element.elementType.isScrollContainer || element.elementType == .pickerWheel
        if clips { canvas.pushClip(rect) }
        let inner = childContext(of: element, context)
        for child in element.children { draw(child, inner) }
        if clips { canvas.popClip() }
    }

    // MARK: Geometry

    /// The pixels of a frame in points (`PixelRect(frame:scale:)`, the documented mapping).
    func pixels(_ frame: CGRect) -> PixelRect { PixelRect(frame: frame, scale: Int(scale)) }

    /// A frame in points as a pixel-space rectangle with the same rounded edges.
    func pixelFrame(_ frame: CGRect) -> CGRect { pixels(frame).cgRect }

    /// A point (in points) in pixel space, unrounded.
    func point(_ x: Double, _ y: Double) -> CGPoint { CGPoint(x: x * scale, y: y * scale) }

    // MARK: Text

    enum Alignment { case leading, center, trailing }

    struct TextStyle {
        var size: Double
        var weight: FontWeight = .regular
        var color: RGBAColor
    }

    func spec(_ style: TextStyle) -> FontSpec {
        FontSpec(weight: style.weight, pixelSize: max(1, Int((style.size * ScreenPainter.fontScale * scale).rounded())))
    }

    /// Draws `string` inside `frame` (points): wrapped into as many lines as the frame's height holds
    /// (at most `maxLines`), the last one truncated with `…`, the block centred vertically, each line
    /// aligned horizontally. A single line up to 1/0.85 too wide is drawn smaller instead of truncated.
    /// Returns what was drawn.
    @discardableResult
    mutating func drawText(
        _ string: String, _ style: TextStyle, in frame: CGRect, alignment: Alignment = .leading, maxLines: Int = 0
    ) -> DrawnText {
        guard !string.isEmpty, frame.width > 0 else { return DrawnText(lines: [], pixelSize: 0, width: 0) }
        var font = spec(style)
        var metrics = text.cache.metrics(font)
        let available = Int(pixel: ((frame.height * scale) / metrics.lineHeight).rounded(.down))
        var lineLimit = max(1, available)
        if maxLines > 0 { lineLimit = min(lineLimit, maxLines) }
        let maxWidth = frame.width * scale
        if lineLimit == 1 && !string.contains("\n") {
            // A single line a little too wide shrinks to fit (UILabel's adjustsFontSizeToFitWidth with
            // a minimum scale factor): app layouts estimate text widths, and "$19.…" would mislead.
            let width = text.width(of: string, font)
            if width > maxWidth && width * ScreenPainter.minimumScaleFactor <= maxWidth {
                var smaller = font
                smaller.pixelSize = max(1, Int(pixel: (Double(font.pixelSize) * maxWidth / width).rounded(.down)))
                while smaller.pixelSize > 1 && text.width(of: string, smaller) > maxWidth { smaller.pixelSize -= 1 }
                font = smaller
                metrics = text.cache.metrics(font)
            }
        }
        let lines = text.lines(string, font, maxWidth: maxWidth, maxLines: lineLimit)
        let blockHeight = Double(lines.count - 1) * metrics.lineHeight + metrics.ascender + metrics.descender
        let top = frame.midY * scale - blockHeight / 2
        var widest = 0.0
        for (i, line) in lines.enumerated() {
            let width = text.width(of: line, font)
            widest = max(widest, width)
            let x: Double
            switch alignment {
            case .leading: x = frame.minX * scale
            case .center: x = frame.midX * scale - width / 2
            case .trailing: x = frame.maxX * scale - width
            }
            let baseline = Int(pixel: (top + metrics.ascender + Double(i) * metrics.lineHeight).rounded())
            text.draw(line, font, x: x.rounded(), baseline: baseline, color: style.color, on: &canvas)
        }
        return DrawnText(lines: lines, pixelSize: font.pixelSize, width: widest)
    }

    /// The lines `drawText` drew, at which pixel size, and the widest line's width in pixels.
    struct DrawnText {
        var lines: [String]
        var pixelSize: Int
        var width: Double
    }

    /// The width of `string` in points at `style`.
    func textWidth(_ string: String, _ style: TextStyle) -> Double {
        text.width(of: string, spec(style)) / scale
    }

    /// The text style an `ElementStyle` names (see `ElementStyle`'s documentation for sizes).
    static func textStyle(for style: ElementStyle?) -> TextStyle {
        let style = style ?? .body
        let color: RGBAColor
        switch style {
        case .largeTitle, .title, .headline, .body: color = IOSPalette.label
        case .secondary, .caption: color = IOSPalette.secondaryLabel
        case .error, .destructive: color = IOSPalette.red
        case .filled: color = .white
        case .plain: color = IOSPalette.tint
        }
        return TextStyle(size: style.pointSize, weight: style.isBold ? .bold : .regular, color: color)
    }
}
