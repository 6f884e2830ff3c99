/// A rectangle in points, in screen coordinates (origin at the top-left of the screen, y down).
///
/// The failing element's frame is recorded in points; multiply by the device scale to get the
/// pixel rectangle on the screenshot (`ScreenRaster` maps points to pixels exactly that way).
public struct Frame: Codable, Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
