import Foundation
import SimulatedUI

/// How each element type looks (iOS 17, light appearance). Sizes in points unless named `…Pixels`.
extension ScreenPainter {
    // MARK: Bars

    mutating func drawNavigationBar(_ bar: ElementSnapshot) {
        // The bar's background reaches up under the status bar, as on iOS.
        var area = bar.frame
        if area.minY <= device.safeAreaTop + 1 {
            area = CGRect(x: area.minX, y: 0, width: area.width, height: area.maxY)
        }
        canvas.fill(pixels(area), color: IOSPalette.bar)
        let bottom = pixels(bar.frame).maxY
        canvas.fill(
            PixelRect(
                x: pixels(bar.frame).minX, y: bottom - hairlinePixels, width: pixels(bar.frame).width,
                height: hairlinePixels),
            color: IOSPalette.separator)
        let title = bar.label
        let childTexts = bar.children.filter { $0.elementType == .staticText }.map(\.label)
        guard !title.isEmpty, !childTexts.contains(title) else { return }
        if bar.style == .largeTitle || bar.frame.height > 70 {
            let line = CGRect(x: bar.frame.minX + 16, y: bar.frame.maxY - 52, width: bar.frame.width - 32, height: 44)
            drawText(title, TextStyle(size: 34, weight: .bold, color: IOSPalette.label), in: line)
        } else {
            let line = CGRect(x: bar.frame.minX + 80, y: bar.frame.minY, width: bar.frame.width - 160, height: 44)
            drawText(title, TextStyle(size: 17, weight: .bold, color: IOSPalette.label), in: line, alignment: .center)
        }
    }

    /// One device pixel at 2×, two at 3×: the visible weight of iOS's hairlines in a screenshot.
    var hairlinePixels: Int { max(1, Int(scale) - 1) }

    // MARK: Buttons

    mutating func drawButton(_ button: ElementSnapshot, _ context: Context, disabled: Bool) {
        let frame = button.frame
        let label = button.label
        if context.inAlert {
            drawAlertButton(button, context)
            return
        }
        if button.style == .filled {
            let radius = min(12, frame.height / 2) * scale
            canvas.fillRoundedRect(
                pixelFrame(frame), radius: radius, color: disabled ? IOSPalette.fill : IOSPalette.tint)
            drawText(
                label, TextStyle(size: 17, weight: .bold, color: disabled ? IOSPalette.disabledLabel : .white),
                in: frame.insetBy(dx: 8, dy: 0), alignment: .center, maxLines: 1)
            return
        }
        var color = button.style == .destructive ? IOSPalette.red : IOSPalette.tint
        if disabled { color = IOSPalette.disabledLabel }
        let style = TextStyle(size: 17, color: color)
        if context.inNavigationBar && isBackButton(button) {
            // The back chevron, then the previous screen's title.
            let height = 11.0
            let tipX = frame.minX + 8
            let midY = frame.midY
            let width = 2.6 * scale
            canvas.strokeLine(
                from: point(tipX + height * 0.6, midY - height), to: point(tipX, midY), lineWidth: width, color: color)
            canvas.strokeLine(
                from: point(tipX, midY), to: point(tipX + height * 0.6, midY + height), lineWidth: width, color: color)
            let textFrame = CGRect(
                x: tipX + 14, y: frame.minY, width: max(0, frame.maxX - tipX - 14), height: frame.height)
            drawText(label, style, in: textFrame, maxLines: 1)
            return
        }
        if label.isEmpty { return }
        drawText(label, style, in: frame, alignment: .center, maxLines: 1)
    }

    /// A navigation-bar button at the bar's leading edge, or one named as a back button.
    func isBackButton(_ button: ElementSnapshot) -> Bool {
        button.frame.minX < 40 || button.identifier.lowercased().contains("back")
    }

    mutating func drawAlertButton(_ button: ElementSnapshot, _ context: Context) {
        let frame = button.frame
        let alert = context.alertFrame
        let line = hairlinePixels
        let rect = pixels(frame)
        canvas.fill(PixelRect(x: rect.minX, y: rect.minY, width: rect.width, height: line), color: IOSPalette.separator)
        if frame.minX > alert.minX + 1 {
            canvas.fill(
                PixelRect(x: rect.minX, y: rect.minY, width: line, height: rect.height), color: IOSPalette.separator)
        }
        let color =
            !button.isEnabled
            ? IOSPalette.disabledLabel
            : button.style == .destructive ? IOSPalette.red : IOSPalette.tint
        let weight: FontWeight = button.style == .filled ? .bold : .regular
        drawText(
            button.label, TextStyle(size: 17, weight: weight, color: color), in: frame.insetBy(dx: 8, dy: 0),
            alignment: .center, maxLines: 1)
    }

    // MARK: Text

    mutating func drawStaticText(_ element: ElementSnapshot, _ context: Context, disabled: Bool) {
        let string = element.label.isEmpty ? (element.value ?? "") : element.label
        var style = ScreenPainter.textStyle(for: element.style)
        if context.inAlert && element.style == nil { style.size = 13 }
        if disabled { style.color = IOSPalette.disabledLabel }
        let alignment: Alignment = context.inAlert || context.parent == .navigationBar ? .center : .leading
        drawText(string, style, in: element.frame, alignment: alignment)
    }

    // MARK: Text fields

    mutating func drawTextField(_ field: ElementSnapshot, disabled: Bool) {
        let frame = field.frame
        let box = pixelFrame(frame)
        let radius = min(8, frame.height / 2) * scale
        canvas.fillRoundedRect(box, radius: radius, color: disabled ? IOSPalette.groupedBackground : .white)
        if field.hasFocus {
            // The focus ring: a 2 pt tinted border.
            canvas.strokeRoundedRect(box, radius: radius, lineWidth: 2 * scale, color: IOSPalette.tint)
        } else {
            canvas.strokeRoundedRect(
                box, radius: radius, lineWidth: Double(hairlinePixels), color: IOSPalette.fieldBorder)
        }
        let content = frame.insetBy(dx: 12, dy: 0)
        // XCUITest reports an empty field's placeholder as its value: show it as a placeholder.
        var value = field.value ?? ""
        if let placeholder = field.placeholderValue, value == placeholder { value = "" }
        var caretX = content.minX
        if !value.isEmpty && field.elementType == .secureTextField {
            // One dot a character, as UIKit draws secure text.
            let diameter = 8.0
            let step = 11.0
            let count = min(value.count, max(1, Int(pixel: content.width / step)))
            for i in 0..<count {
                canvas.fillCircle(
                    center: point(content.minX + diameter / 2 + Double(i) * step, frame.midY),
                    radius: diameter / 2 * scale, color: disabled ? IOSPalette.disabledLabel : IOSPalette.label)
            }
            caretX = content.minX + Double(count) * step
        } else if !value.isEmpty {
            let style = TextStyle(size: 17, color: disabled ? IOSPalette.disabledLabel : IOSPalette.label)
            let drawn = drawText(value, style, in: content, maxLines: 1)
            caretX = content.minX + drawn.width / scale + 1
        } else if let placeholder = field.placeholderValue, !placeholder.isEmpty {
            drawText(placeholder, TextStyle(size: 17, color: IOSPalette.placeholder), in: content, maxLines: 1)
        }
        if field.hasFocus {
            let caret = CGRect(x: min(caretX, content.maxX), y: frame.midY - 11, width: 2, height: 22)
            canvas.fillRoundedRect(
                CGRect(
                    x: caret.minX * scale, y: caret.minY * scale, width: caret.width * scale,
                    height: caret.height * scale),
                radius: scale, color: IOSPalette.tint)
        }
    }

    // MARK: Images

    mutating func drawImage(_ image: ElementSnapshot, disabled: Bool) {
        let frame = image.frame
        canvas.fillRoundedRect(pixelFrame(frame), radius: min(8, frame.height / 4) * scale, color: IOSPalette.fill)
        // SF Symbols' "photo": a framed picture with a sun and two mountains.
        let size = min(frame.width, frame.height) * 0.5
        guard size >= 8 else { return }
        let color = disabled ? IOSPalette.disabledLabel : IOSPalette.glyph
        let box = CGRect(x: frame.midX - size / 2, y: frame.midY - size * 0.4, width: size, height: size * 0.8)
        let px = CGRect(x: box.minX * scale, y: box.minY * scale, width: box.width * scale, height: box.height * scale)
        canvas.strokeRoundedRect(px, radius: size * 0.12 * scale, lineWidth: max(1, size * 0.07 * scale), color: color)
        canvas.pushClip(
            PixelRect(
                x: Int(pixel: px.minX), y: Int(pixel: px.minY), width: Int(pixel: px.width),
                height: Int(pixel: px.height)))
        canvas.fillCircle(
            center: point(box.minX + size * 0.7, box.minY + size * 0.25), radius: size * 0.09 * scale, color: color)
        canvas.fillConvexPolygon(
            [
                point(box.minX, box.maxY), point(box.minX + size * 0.35, box.minY + size * 0.38),
                point(box.minX + size * 0.7, box.maxY),
            ],
            color: color)
        canvas.fillConvexPolygon(
            [
                point(box.minX + size * 0.45, box.maxY), point(box.minX + size * 0.72, box.minY + size * 0.5),
                point(box.maxX, box.maxY),
            ],
            color: color)
        canvas.popClip()
    }

    // MARK: Switches

    mutating func drawSwitch(_ element: ElementSnapshot, disabled: Bool) {
        let frame = element.frame
        let isOn = element.value == "1"
        let trackWidth = 51.0
        let trackHeight = 31.0
        var track = CGRect(x: frame.minX, y: frame.midY - trackHeight / 2, width: trackWidth, height: trackHeight)
        if frame.width > trackWidth + 20 {
            // A switch row: the label on the leading side, the switch at the trailing edge.
            track.origin.x = frame.maxX - trackWidth
            var style = TextStyle(size: 17, color: IOSPalette.label)
            if disabled { style.color = IOSPalette.disabledLabel }
            drawText(
                element.label, style,
                in: CGRect(x: frame.minX, y: frame.minY, width: frame.width - trackWidth - 8, height: frame.height),
                maxLines: 1)
        }
        let fade = disabled ? 0.4 : 1.0
        let trackPixels = CGRect(
            x: track.minX * scale, y: track.minY * scale, width: track.width * scale, height: track.height * scale)
        canvas.fillRoundedRect(
            trackPixels, radius: trackHeight / 2 * scale,
            color: (isOn ? IOSPalette.green : IOSPalette.switchOff).fading(fade))
        let knobRadius = 13.5
        let knobX = isOn ? track.maxX - 2 - knobRadius : track.minX + 2 + knobRadius
        canvas.fillCircle(
            center: point(knobX, track.midY + 1.5), radius: (knobRadius + 0.5) * scale,
            color: RGBAColor(hex: 0x000000, opacity: 0.12 * fade))
        canvas.fillCircle(center: point(knobX, track.midY), radius: knobRadius * scale, color: .white)
    }

    // MARK: Pickers

    mutating func drawPickerWheel(_ wheel: ElementSnapshot, disabled: Bool) {
        let frame = wheel.frame
        var options = wheel.options
        var selected = wheel.selectedOption ?? 0
        if options.isEmpty, let value = wheel.value {
            // "Blue, 3 of 7": the value before the position.
            let text = value.range(of: ", ", options: .backwards).map { String(value[..<$0.lowerBound]) } ?? value
            options = [text]
            selected = 0
        }
        let rowHeight = 34.0
        let band = CGRect(x: frame.minX + 8, y: frame.midY - rowHeight / 2, width: frame.width - 16, height: rowHeight)
        canvas.pushClip(pixels(frame))
        canvas.fillRoundedRect(
            CGRect(x: band.minX * scale, y: band.minY * scale, width: band.width * scale, height: band.height * scale),
            radius: 8 * scale, color: IOSPalette.pickerSelection)
        let base = disabled ? IOSPalette.disabledLabel : IOSPalette.label
        let visible = min(options.count, Int(pixel: (frame.height / 2 / rowHeight).rounded(.up)) + 1)
        for offset in -visible...visible {
            let index = selected + offset
            guard options.indices.contains(index) else { continue }
            let distance = Double(abs(offset))
            // Rows further from the selection are smaller and fainter, as on the 3-D wheel.
            let size = max(13, 21 - distance * 2)
            let alpha = offset == 0 ? 1.0 : max(0.12, 0.5 - (distance - 1) * 0.15)
            let centerY = frame.midY + Double(offset) * rowHeight * (1 - 0.05 * distance)
            let row = CGRect(x: band.minX + 8, y: centerY - rowHeight / 2, width: band.width - 16, height: rowHeight)
            drawText(
                options[index], TextStyle(size: size, weight: .regular, color: base.fading(alpha)), in: row,
                alignment: .center, maxLines: 1)
        }
        canvas.popClip()
    }

    // MARK: Tables and collections

    mutating func drawCell(_ cell: ElementSnapshot, _ context: Context, disabled: Bool) {
        let frame = cell.frame
        let rect = pixels(frame)
        if context.parent == .collectionView {
            canvas.fillRoundedRect(
                rect.cgRect, radius: min(12, frame.height / 4) * scale,
                color: cell.isSelected ? IOSPalette.selectedCell : IOSPalette.groupedBackground)
            if cell.children.isEmpty && !cell.label.isEmpty {
                drawText(
                    cell.label, TextStyle(size: 15, color: disabled ? IOSPalette.disabledLabel : IOSPalette.label),
                    in: frame.insetBy(dx: 8, dy: 8), alignment: .center)
            }
            return
        }
        canvas.fill(rect, color: cell.isSelected ? IOSPalette.selectedCell : IOSPalette.background)
        let inset = Int((16 * scale).rounded())
        canvas.fill(
            PixelRect(
                x: rect.minX + inset, y: rect.maxY - hairlinePixels, width: rect.width - inset, height: hairlinePixels),
            color: IOSPalette.separator)
        if cell.children.isEmpty && !cell.label.isEmpty {
            drawText(
                cell.label, TextStyle(size: 17, color: disabled ? IOSPalette.disabledLabel : IOSPalette.label),
                in: frame.insetBy(dx: 16, dy: 0), maxLines: 1)
        }
    }

    // MARK: Activity indicator

    mutating func drawActivityIndicator(_ element: ElementSnapshot) {
        let frame = element.frame
        let outer = min(frame.width, frame.height) / 2 * 0.9
        guard outer > 2 else { return }
        let inner = outer * 0.5
        let spokes = 8
        for i in 0..<spokes {
            let angle = Double(i) / Double(spokes) * 2 * Double.pi - Double.pi / 2
            let alpha = 1.0 - Double(i) / Double(spokes) * 0.75
            canvas.strokeLine(
                from: point(frame.midX + cos(angle) * inner, frame.midY + sin(angle) * inner),
                to: point(frame.midX + cos(angle) * outer, frame.midY + sin(angle) * outer),
                lineWidth: outer * 0.24 * scale, color: RGBAColor(hex: 0x8E8E93, opacity: alpha))
        }
    }
}
