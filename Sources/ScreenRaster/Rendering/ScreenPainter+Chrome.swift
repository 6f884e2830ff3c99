import Foundation
import SimulatedUI

/// What iOS draws around the app: the status bar, the Dynamic Island, the home indicator, alert boxes.
extension ScreenPainter {
    /// The status bar: 9:41, cellular bars and a full battery; the Dynamic Island on devices whose
    /// top safe area is 59 pt.
    mutating func drawStatusBar() {
        let top = device.safeAreaTop
        guard top > 0 else { return }
        let width = device.width
        let black = IOSPalette.label
        if top >= 44 {
            if device.idiom == .phone && top >= 59 {
                // The Dynamic Island: 126 × 37 pt, 11 pt from the top.
                let island = CGRect(x: width / 2 - 63, y: 11, width: 126, height: 37)
                canvas.fillRoundedRect(
                    CGRect(
                        x: island.minX * scale, y: island.minY * scale, width: island.width * scale,
                        height: island.height * scale),
                    radius: 18.5 * scale, color: black)
            }
            let centerY = top >= 59 ? 31.0 : 24.0
            let side = (width - 126) / 2
            drawText(
                "9:41", TextStyle(size: 17, weight: .bold, color: black),
                in: CGRect(x: 0, y: centerY - 12, width: side, height: 24), alignment: .center, maxLines: 1)
            drawCellularAndBattery(rightEdge: width - side / 2 + 38, centerY: centerY, size: 1)
        } else {
            let centerY = top / 2
            drawText(
                "9:41", TextStyle(size: 12, weight: .bold, color: black),
                in: CGRect(x: 0, y: 0, width: width, height: top), alignment: .center, maxLines: 1)
            drawBars(left: 6, centerY: centerY, size: 0.8)
            drawBattery(right: width - 6, centerY: centerY, size: 0.8)
        }
    }

    private mutating func drawCellularAndBattery(rightEdge: Double, centerY: Double, size: Double) {
        drawBattery(right: rightEdge, centerY: centerY, size: size)
        drawBars(left: rightEdge - 27 * size - 32 * size, centerY: centerY, size: size)
    }

    /// Four cellular bars, 3 pt wide, tallest 11 pt, their bottoms aligned.
    private mutating func drawBars(left: Double, centerY: Double, size: Double) {
        let bottom = centerY + 5.5 * size
        for i in 0..<4 {
            let h = (4 + 2.4 * Double(i)) * size
            let x = left + Double(i) * 4.5 * size
            canvas.fillRoundedRect(
                CGRect(x: x * scale, y: (bottom - h) * scale, width: 3 * size * scale, height: h * scale),
                radius: 1 * scale, color: IOSPalette.label)
        }
    }

    /// A full battery: a 25 × 12 pt outline, its charge and the terminal.
    private mutating func drawBattery(right: Double, centerY: Double, size: Double) {
        let body = CGRect(x: right - 27 * size, y: centerY - 6 * size, width: 25 * size, height: 12 * size)
        let px = CGRect(
            x: body.minX * scale, y: body.minY * scale, width: body.width * scale, height: body.height * scale)
        canvas.strokeRoundedRect(
            px, radius: 3.5 * size * scale, lineWidth: 1 * scale, color: RGBAColor(hex: 0x000000, opacity: 0.4))
        canvas.fillRoundedRect(
            px.insetBy(dx: 2 * size * scale, dy: 2 * size * scale), radius: 2 * size * scale, color: IOSPalette.label)
        canvas.fillRoundedRect(
            CGRect(
                x: body.maxX * scale + 1 * scale, y: (centerY - 2 * size) * scale, width: 1.5 * size * scale,
                height: 4 * size * scale),
            radius: 0.75 * scale, color: RGBAColor(hex: 0x000000, opacity: 0.4))
    }

    /// The home indicator: a 134 × 5 pt bar 8 pt above the bottom edge, on devices without a home button.
    mutating func drawHomeIndicator() {
        guard device.safeAreaBottom > 0 else { return }
        let bar = CGRect(x: device.width / 2 - 67, y: device.height - 13, width: 134, height: 5)
        canvas.fillRoundedRect(
            CGRect(x: bar.minX * scale, y: bar.minY * scale, width: bar.width * scale, height: bar.height * scale),
            radius: 2.5 * scale, color: IOSPalette.label)
    }

    /// The alert's rounded box; its title when no static text child shows it.
    mutating func drawAlertBox(_ alert: ElementSnapshot) {
        canvas.fillRoundedRect(pixelFrame(alert.frame), radius: 14 * scale, color: IOSPalette.alertBackground)
        let hasText = alert.children.contains { $0.elementType == .staticText }
        if !hasText && !alert.label.isEmpty {
            drawText(
                alert.label, TextStyle(size: 17, weight: .bold, color: IOSPalette.label),
                in: CGRect(
                    x: alert.frame.minX + 16, y: alert.frame.minY + 12, width: alert.frame.width - 32, height: 44),
                alignment: .center)
        }
    }
}
