import Foundation

/// A simulated iOS device: its name, idiom, screen size in points and scale (pixels per point).
///
/// A point at `(x, y)` covers the pixels `x*scale ..< (x+width)*scale` on the device's screen, so a
/// frame in points maps to an exact pixel rectangle (the renderer and the dashboard both rely on it).
public struct Device: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The user-interface idiom, as `UIUserInterfaceIdiom`.
    public enum Idiom: String, Codable, Sendable, Hashable {
        case phone
        case pad
    }

    public var name: String
    public var idiom: Idiom
    /// Screen size in points, portrait.
    public var width: Double
    public var height: Double
    /// Pixels per point (2 or 3).
    public var scale: Int
    /// Safe-area insets in points: the status bar (top) and the home indicator (bottom).
    public var safeAreaTop: Double
    public var safeAreaBottom: Double
    /// The OS version this simulated device reports.
    public var osVersion: String

    public init(
        name: String, idiom: Idiom, width: Double, height: Double, scale: Int,
        safeAreaTop: Double, safeAreaBottom: Double, osVersion: String = "iOS 17.5"
    ) {
        self.name = name
        self.idiom = idiom
        self.width = width
        self.height = height
        self.scale = scale
        self.safeAreaTop = safeAreaTop
        self.safeAreaBottom = safeAreaBottom
        self.osVersion = osVersion
    }

    /// Screen size in device pixels: `(width × scale, height × scale)`.
    public var pixelWidth: Int { Int((width * Double(scale)).rounded()) }
    public var pixelHeight: Int { Int((height * Double(scale)).rounded()) }

    /// The screen's bounds in points.
    public var bounds: CGRect { CGRect(x: 0, y: 0, width: width, height: height) }

    public var description: String { name }

    public static let iPhoneSE3 = Device(
        name: "iPhone SE (3rd generation)", idiom: .phone, width: 375, height: 667, scale: 2,
        safeAreaTop: 20, safeAreaBottom: 0)
    public static let iPhone15 = Device(
        name: "iPhone 15", idiom: .phone, width: 393, height: 852, scale: 3, safeAreaTop: 59, safeAreaBottom: 34)
    public static let iPhone15ProMax = Device(
        name: "iPhone 15 Pro Max", idiom: .phone, width: 430, height: 932, scale: 3,
        safeAreaTop: 59, safeAreaBottom: 34)
    public static let iPad10 = Device(
        name: "iPad (10th generation)", idiom: .pad, width: 820, height: 1180, scale: 2,
        safeAreaTop: 24, safeAreaBottom: 20)

    /// Every shipped device.
    public static let all: [Device] = [.iPhoneSE3, .iPhone15, .iPhone15ProMax, .iPad10]

    /// The environment variable that chooses the device of a test run.
    public static let environmentKey = "FAILSCOPE_DEVICE"

    /// The device named `name` (exact, or case-insensitively ignoring punctuation, so
    /// `iphone-15-pro-max` and `ipad` work); `nil` when none matches.
    public static func named(_ name: String) -> Device? {
        if let exact = all.first(where: { $0.name == name }) { return exact }
        let key = normalized(name)
        if let loose = all.first(where: { normalized($0.name) == key }) { return loose }
        return all.first(where: { normalized($0.name).hasPrefix(key) && !key.isEmpty })
    }

    /// The device chosen by `FAILSCOPE_DEVICE` in `environment`, iPhone 15 when unset.
    /// - Throws: `DeviceError.unknown` naming the shipped devices when the variable names none.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DeviceError) -> Device {
        guard let name = environment[environmentKey], !name.isEmpty else { return .iPhone15 }
        guard let device = named(name) else { throw DeviceError.unknown(name) }
        return device
    }

    private static func normalized(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }
}

/// A device name that matches no shipped device.
public enum DeviceError: Error, CustomStringConvertible, Equatable {
    case unknown(String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "Unknown device \"\(name)\" in \(Device.environmentKey); known devices: "
                + Device.all.map(\.name).joined(separator: ", ")
        }
    }
}
