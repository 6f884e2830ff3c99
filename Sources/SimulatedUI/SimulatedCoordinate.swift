import Foundation

/// A point on the screen relative to an element, as `XCUICoordinate`; resolved when used.
///
/// A tap hits the frontmost hittable element under the point. On a picker wheel, a tap 30 points
/// above or below its centre selects the previous or next value (one 32-point row), as on iOS. A
/// press-and-drag scrolls the scroll view under the start point by the vertical distance, or turns
/// a picker wheel by whole rows.
public struct SimulatedCoordinate: Sendable {
    let element: SimulatedElement
    let normalizedOffset: CGVector
    let offset: CGVector

    /// The same point moved by `vector` points.
    public func withOffset(_ vector: CGVector) -> SimulatedCoordinate {
        SimulatedCoordinate(
            element: element, normalizedOffset: normalizedOffset,
            offset: CGVector(dx: offset.dx + vector.dx, dy: offset.dy + vector.dy))
    }

    /// The point in screen coordinates (points), from the element's current frame.
    public var screenPoint: CGPoint {
        point(in: element.frame)
    }

    private func point(in frame: CGRect) -> CGPoint {
        CGPoint(
            x: frame.minX + frame.width * normalizedOffset.dx + offset.dx,
            y: frame.minY + frame.height * normalizedOffset.dy + offset.dy)
    }

    /// Taps the frontmost hittable element under the point.
    public func tap(file: StaticString = #filePath, line: UInt = #line) {
        let app = element.app
        app.perform("tap a coordinate of", on: element, requireHittable: false, file: file, line: line) { node in
            let point = point(in: node.frame)
            guard let target = app.withTree({ hitTest(point, in: $0) }) else { return }
            if target.elementType == .pickerWheel {
                turn(target, byRows: ((point.y - target.frame.midY) / ScreenLayout.pickerRowHeight).rounded())
            } else {
                element.activate(target)
            }
        }
    }

    /// Presses for `duration` seconds, then drags to `destination`.
    public func press(
        forDuration duration: TimeInterval, thenDragTo destination: SimulatedCoordinate,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let app = element.app
        app.perform("drag from a coordinate of", on: element, requireHittable: false, file: file, line: line) { node in
            let start = point(in: node.frame)
            let end = destination.screenPoint
            let candidates = app.withTree { root in
                root.descendants.filter { $0.frame.contains(start) && isReachable(start, $0, root: root) }
            }
            if let wheel = candidates.last(where: { $0.elementType == .pickerWheel }) {
                turn(wheel, byRows: ((start.y - end.y) / ScreenLayout.pickerRowHeight).rounded())
            } else if let container = candidates.last(where: { $0.elementType.isScrollContainer }) {
                app.scroll(container, by: start.y - end.y)
            }
        }
    }

    private func turn(_ wheel: ElementNode, byRows rows: Double) {
        guard rows != 0, let selected = wheel.selectedOption, let onSelect = wheel.onSelect else { return }
        let index = min(max(0, selected + Int(rows)), wheel.options.count - 1)
        if index != selected { onSelect(index) }
    }

    /// The deepest element under `point` that reacts to touches and is not clipped or covered.
    private func hitTest(_ point: CGPoint, in root: ElementNode) -> ElementNode? {
        root.descendants.last { node in
            node.frame.contains(point) && isReachable(point, node, root: root)
                && (node.onTap != nil || node.onTextChange != nil || node.onSelect != nil)
        }
    }

    private func isReachable(_ point: CGPoint, _ node: ElementNode, root: ElementNode) -> Bool {
        if let alert = root.children.first(where: { $0.elementType == .alert }), !alert.contains(node) { return false }
        var ancestor = node.parent
        while let current = ancestor {
            if current.elementType.isScrollContainer && !current.frame.contains(point) { return false }
            ancestor = current.parent
        }
        return true
    }
}
