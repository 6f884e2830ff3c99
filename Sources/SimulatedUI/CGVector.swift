import Foundation

#if !canImport(CoreGraphics)
    /// A two-dimensional vector, as CoreGraphics' `CGVector` (absent from Foundation on Linux), so
    /// coordinate code reads as it does against XCUITest: `CGVector(dx: 0.5, dy: 0.5)`.
    public struct CGVector: Sendable, Hashable, Codable {
        public var dx: CGFloat
        public var dy: CGFloat

        public init(dx: CGFloat, dy: CGFloat) {
            self.dx = dx
            self.dy = dy
        }
    }
#endif
