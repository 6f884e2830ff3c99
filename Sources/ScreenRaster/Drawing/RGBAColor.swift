/// A colour: 8-bit red, green, blue and straight (not premultiplied) alpha, in sRGB.
///
/// Drawing calls take straight colours; the `Canvas` premultiplies when it blends.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from `0xRRGGBB` and an opacity from 0 to 1.
    public init(hex: UInt32, opacity: Double = 1) {
        self.init(
            red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF),
            alpha: UInt8((max(0, min(1, opacity)) * 255).rounded()))
    }

    /// This colour with its alpha multiplied by `factor` (0...1).
    public func fading(_ factor: Double) -> RGBAColor {
        var copy = self
        copy.alpha = UInt8((Double(alpha) * max(0, min(1, factor))).rounded())
        return copy
    }

    /// The opaque colour this one gives when drawn over `background` (which is taken as opaque).
    public func composited(over background: RGBAColor) -> RGBAColor {
        let a = Int(alpha)
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Int(top) * a + Int(bottom) * (255 - a) + 127) / 255)
        }
        return RGBAColor(
            red: mix(red, background.red), green: mix(green, background.green), blue: mix(blue, background.blue))
    }

    /// The largest difference between two colours in any channel, alpha included.
    public func distance(to other: RGBAColor) -> Int {
        max(
            abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)),
            abs(Int(blue) - Int(other.blue)), abs(Int(alpha) - Int(other.alpha)))
    }

    /// `#RRGGBB` for opaque colours, `#RRGGBBAA` otherwise.
    public var description: String {
        func hex(_ v: UInt8) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }

    public static let white = RGBAColor(hex: 0xFFFFFF)
    public static let black = RGBAColor(hex: 0x000000)
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
}
