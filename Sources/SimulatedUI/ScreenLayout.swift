import Foundation

/// Turns an app's `AppScreen` into the live element tree with frames in points on a device.
///
/// Metrics follow UIKit's defaults: navigation bar 44 pt under the status bar, 16 pt margins (20 on
/// iPad), 12 pt spacing, buttons 50 pt (filled) or 44 pt, text fields 44 pt, switches 51×31 pt,
/// pickers 216 pt with 32 pt rows, table rows 56 pt, collection items 150 pt in 2 (phone) or 4 (pad)
/// columns. Cells farther than half a viewport outside their scroll view are not materialized, as
/// on iOS where off-screen cells are reused.
struct ScreenLayout {
    static let navigationBarHeight = 44.0
    static let pickerHeight = 216.0
    static let pickerRowHeight = 32.0
    static let tableRowHeight = 56.0
    static let collectionRowHeight = 150.0
    static let spacing = 12.0

    let device: Device
    /// Scroll offsets by scroll-container key (points from the top of the content).
    let scrollOffsets: [String: Double]
    let focusKey: String?
    let appName: String

    var margin: Double { device.idiom == .pad ? 20 : 16 }
    var contentWidth: Double { device.width - 2 * margin }
    var contentBottom: Double { device.height - device.safeAreaBottom }

    func build(_ screen: AppScreen) -> ElementNode {
        let application = ElementNode(.application, label: appName, frame: device.bounds)
        application.key = "app"
        let window = ElementNode(.window, frame: device.bounds)
        application.add(window)
        var top = device.safeAreaTop
        if let bar = screen.navigationBar {
            window.add(navigationBar(bar, top: top))
            top += Self.navigationBarHeight
        }
        layoutContent(screen.content, in: window, top: top + 16, bottom: contentBottom)
        if let alert = screen.alert {
            application.add(alertNode(alert))
        }
        assignKeys(application)
        applyFocus(application)
        computeHittability(application, alert: application.children.first { $0.elementType == .alert })
        return application
    }

    // MARK: Navigation bar and alert

    private func navigationBar(_ bar: NavigationBar, top: Double) -> ElementNode {
        let node = ElementNode(
            .navigationBar, identifier: bar.identifier,
            frame: CGRect(x: 0, y: top, width: device.width, height: Self.navigationBarHeight))
        // The title is centred between the bar buttons: its frame spans the space they leave.
        let titleWidth = max(100, device.width - 2 * 120)
        node.add(
            ElementNode(
                .staticText, label: bar.title,
                frame: CGRect(x: (device.width - titleWidth) / 2, y: top + 11, width: titleWidth, height: 22)
            ).styled(.headline))
        if let back = bar.backButton {
            let button = ElementNode(
                .button, identifier: back.identifier.isEmpty ? "BackButton" : back.identifier, label: back.label,
                frame: CGRect(x: 8, y: top, width: min(140, textWidth(back.label, style: .body) + 28), height: 44))
            button.onTap = back.action
            node.add(button.styled(.plain))
        }
        var right = device.width - 16
        for item in bar.trailingButtons.reversed() {
            let width = textWidth(item.label, style: .body) + 8
            right -= width
            let button = ElementNode(
                .button, identifier: item.identifier, label: item.label,
                frame: CGRect(x: right, y: top, width: width, height: 44))
            button.onTap = item.action
            node.add(button.styled(item.style))
            right -= 12
        }
        return node
    }

    private func alertNode(_ alert: Alert) -> ElementNode {
        let width = 270.0
        let messageHeight = alert.message.isEmpty ? 0 : textHeight(alert.message, style: .caption, width: width - 32)
        let height = 20 + 22 + 4 + messageHeight + 20 + 44 * Double(max(1, alert.buttons.count))
        let frame = CGRect(x: (device.width - width) / 2, y: (device.height - height) / 2, width: width, height: height)
        let node = ElementNode(.alert, identifier: alert.identifier, label: alert.title, frame: frame)
        node.add(
            ElementNode(
                .staticText, label: alert.title,
                frame: CGRect(x: frame.minX + 16, y: frame.minY + 20, width: width - 32, height: 22)
            )
            .styled(.headline))
        if !alert.message.isEmpty {
            node.add(
                ElementNode(
                    .staticText, label: alert.message,
                    frame: CGRect(x: frame.minX + 16, y: frame.minY + 46, width: width - 32, height: messageHeight)
                ).styled(.caption))
        }
        var y = frame.maxY - 44 * Double(alert.buttons.count)
        for item in alert.buttons {
            let button = ElementNode(
                .button, identifier: item.identifier, label: item.label,
                frame: CGRect(x: frame.minX, y: y, width: width, height: 44))
            button.onTap = item.action
            node.add(button.styled(item.style))
            y += 44
        }
        return node
    }

    // MARK: Content

    /// Lays `views` out from `top`; when they do not fit above `bottom` and hold no list, wraps
    /// them in a scroll view.
    private func layoutContent(_ views: [View], in window: ElementNode, top: Double, bottom: Double) {
        let hasList = views.contains { if case .list = $0.kind { true } else { false } }
        var nodes: [ElementNode] = []
        var y = top
        for (index, view) in views.enumerated() {
            let node = place(view, y: y, bottom: bottom, isFirst: index == 0)
            y = node.frame.maxY + Self.spacing
            nodes.append(node)
        }
        let overflows = y - Self.spacing > bottom
        guard overflows && !hasList else {
            nodes.forEach(window.add)
            return
        }
        let viewportTop = top - 16
        let scroll = ElementNode(
            .scrollView, frame: CGRect(x: 0, y: viewportTop, width: device.width, height: bottom - viewportTop))
        scroll.key = "app/window/scrollView"
        scroll.contentHeight = y - Self.spacing + 16 - viewportTop
        let offset = clampedOffset(scroll)
        scroll.contentOffset = offset
        for node in nodes {
            node.shift(by: -offset)
            scroll.add(node)
        }
        window.add(scroll)
    }

    private func place(_ view: View, y: Double, bottom: Double, isFirst: Bool) -> ElementNode {
        let x = margin
        let width = contentWidth
        let node: ElementNode
        switch view.kind {
        case .text(let text, let style):
            let w = min(width, textWidth(text, style: style))
            node = ElementNode(
                .staticText, identifier: view.identifier, label: text,
                frame: CGRect(x: x, y: y, width: w, height: textHeight(text, style: style, width: width)))
            node.style = style
        case .button(let label, let style, let action):
            let height = style == .filled ? 50.0 : 44.0
            let w = style == .filled ? width : min(width, textWidth(label, style: .body) + 16)
            node = ElementNode(
                .button, identifier: view.identifier, label: label, frame: CGRect(x: x, y: y, width: w, height: height))
            node.style = style
            node.onTap = action
        case .textField(let text, let placeholder, let isSecure, let onChange):
            node = ElementNode(
                isSecure ? .secureTextField : .textField, identifier: view.identifier,
                frame: CGRect(x: x, y: y, width: width, height: 44))
            node.value = text.isEmpty ? placeholder : (isSecure ? String(repeating: "•", count: text.count) : text)
            node.placeholderValue = placeholder
            node.onTextChange = onChange
            node.contentText = text
        case .toggle(let label, let isOn, let onChange):
            node = ElementNode(.other, frame: CGRect(x: x, y: y, width: width, height: 44))
            node.add(
                ElementNode(
                    .staticText, label: label,
                    frame: CGRect(x: x, y: y + 11, width: min(width - 67, textWidth(label, style: .body)), height: 22)
                )
                .styled(.body))
            let control = ElementNode(
                .switch, identifier: view.identifier, label: label,
                frame: CGRect(x: x + width - 51, y: y + 6.5, width: 51, height: 31))
            control.value = isOn ? "1" : "0"
            control.onTap = { onChange(!isOn) }
            node.add(control)
            control.isEnabled = view.isEnabled
        case .picker(let wheels):
            node = ElementNode(
                .picker, identifier: view.identifier, frame: CGRect(x: x, y: y, width: width, height: Self.pickerHeight)
            )
            let wheelWidth = width / Double(max(1, wheels.count))
            for (index, wheel) in wheels.enumerated() {
                let wheelNode = ElementNode(
                    .pickerWheel, identifier: wheel.identifier,
                    frame: CGRect(x: x + Double(index) * wheelWidth, y: y, width: wheelWidth, height: Self.pickerHeight)
                )
                let selected = wheel.values.isEmpty ? nil : min(max(0, wheel.selectedIndex), wheel.values.count - 1)
                wheelNode.options = wheel.values
                wheelNode.selectedOption = selected
                wheelNode.value = selected.map { "\(wheel.values[$0]), \($0 + 1) of \(wheel.values.count)" }
                wheelNode.onSelect = wheel.onSelect
                node.add(wheelNode)
            }
        case .image(let label):
            node = ElementNode(
                .image, identifier: view.identifier, label: label, frame: CGRect(x: x, y: y, width: width, height: 160))
        case .activityIndicator(let label):
            node = ElementNode(
                .activityIndicator, identifier: view.identifier, label: label,
                frame: CGRect(x: x + width / 2 - 18, y: y, width: 37, height: 37))
        case .spacer(let height):
            node = ElementNode(.other, frame: CGRect(x: x, y: y, width: width, height: height))
        case .list(let type, let cells):
            // A list first on the screen starts right under the navigation bar; after other content,
            // below it.
            node = list(type, identifier: view.identifier, cells: cells, top: isFirst ? y - 16 : y, bottom: bottom)
        }
        if view.isEnabled == false { node.isEnabled = false }
        return node
    }

    private func list(_ type: ElementType, identifier: String, cells: [Cell], top: Double, bottom: Double)
        -> ElementNode
    {
        let viewport = CGRect(x: 0, y: top, width: device.width, height: max(200, bottom - top))
        let node = ElementNode(type, identifier: identifier, frame: viewport)
        node.key = "app/window/\(type.rawValue)[#\(identifier)]"
        let columns = type == .table ? 1 : (device.idiom == .pad ? 4 : 2)
        let gap = type == .table ? 0.0 : 10.0
        let rowHeight = type == .table ? Self.tableRowHeight : Self.collectionRowHeight
        let cellWidth = type == .table ? device.width : (contentWidth - gap * Double(columns - 1)) / Double(columns)
        let rows = (cells.count + columns - 1) / columns
        node.contentHeight = 16 + Double(rows) * (rowHeight + gap) + 16
        let offset = clampedOffset(node)
        node.contentOffset = offset
        let visibleTop = offset - viewport.height / 2
        let visibleBottom = offset + viewport.height * 1.5
        for (index, cell) in cells.enumerated() {
            let row = index / columns
            let column = index % columns
            let contentY = 16 + Double(row) * (rowHeight + gap)
            guard contentY + rowHeight >= visibleTop, contentY <= visibleBottom else { continue }
            let x = type == .table ? 0 : margin + Double(column) * (cellWidth + gap)
            let frame = CGRect(x: x, y: viewport.minY + contentY - offset, width: cellWidth, height: rowHeight)
            let cellNode = ElementNode(.cell, identifier: cell.identifier, label: cell.title, frame: frame)
            cellNode.onTap = cell.action
            var textTop = frame.minY + 12
            if cell.showsImage && type == .collectionView {
                cellNode.add(
                    ElementNode(
                        .image, label: cell.title,
                        frame: CGRect(x: frame.minX + 8, y: frame.minY + 8, width: frame.width - 16, height: 72)))
                textTop = frame.minY + 88
            }
            let inset = type == .table ? margin : 8
            cellNode.add(
                ElementNode(
                    .staticText, label: cell.title,
                    frame: CGRect(x: frame.minX + inset, y: textTop, width: frame.width - 2 * inset, height: 22)
                )
                .styled(.body))
            if let subtitle = cell.subtitle {
                cellNode.add(
                    ElementNode(
                        .staticText, label: subtitle,
                        frame: CGRect(
                            x: frame.minX + inset, y: textTop + 24, width: frame.width - 2 * inset, height: 20)
                    )
                    .styled(.secondary))
            }
            node.add(cellNode)
        }
        return node
    }

    // MARK: Keys, focus, hittability

    private func assignKeys(_ node: ElementNode) {
        for (index, child) in node.children.enumerated() {
            if child.key.isEmpty {
                let name = child.identifier.isEmpty ? String(index) : "#" + child.identifier
                child.key = "\(node.key)/\(child.elementType.rawValue)[\(name)]"
            }
            assignKeys(child)
        }
    }

    private func applyFocus(_ root: ElementNode) {
        guard let focusKey else { return }
        for node in root.descendants where node.key == focusKey && node.onTextChange != nil {
            node.hasFocus = true
        }
    }

    private func computeHittability(_ root: ElementNode, alert: ElementNode?) {
        let screen = device.bounds
        for node in root.descendants {
            let center = CGPoint(x: node.frame.midX, y: node.frame.midY)
            var hittable = node.frame.width > 0 && node.frame.height > 0 && screen.contains(center)
            if hittable, let alert, !alert.contains(node) { hittable = false }
            var ancestor = node.parent
            while hittable, let current = ancestor {
                if current.elementType.isScrollContainer && !current.frame.contains(center) { hittable = false }
                ancestor = current.parent
            }
            node.isHittable = hittable
        }
        root.isHittable = alert == nil
    }

    private func clampedOffset(_ container: ElementNode) -> Double {
        let maximum = max(0, container.contentHeight - container.frame.height)
        return min(max(0, scrollOffsets[container.key] ?? 0), maximum)
    }

    // MARK: Text metrics (the fonts' advance widths: TextMetrics; the renderer measures real glyphs)

    /// The width the renderer will draw `text` at in `style` on this device (`TextMetrics`), whole points
    /// rounded up.
    private func textWidth(_ text: String, style: ElementStyle) -> Double {
        let scale = Double(device.scale)
        return TextMetrics.width(of: text, pointSize: style.pointSize, bold: style.isBold, scale: scale).rounded(.up)
    }

    private func textHeight(_ text: String, style: ElementStyle, width: Double) -> Double {
        let lineHeight = (style.pointSize * 1.3).rounded()
        let lines = max(1, (textWidth(text, style: style) / width).rounded(.up))
        return lines * lineHeight
    }
}

extension ElementNode {
    fileprivate func styled(_ style: ElementStyle) -> ElementNode {
        self.style = style
        return self
    }
}
