/// The device a screen capture plug-in reports for the run: `iPhone 15`, `iOS 17.5 (simulated)`.
///
/// A run carries a device only when a registered `ScreenCapture` reports one; a suite that captures
/// no screen (a library's unit tests) records runs without a device.
public struct ScreenDevice: Sendable, Hashable {
    /// The device's name, as the dashboard shows it and the device filters take it.
    public var name: String
    /// The OS it runs, free text.
    public var osVersion: String?

    public init(name: String, osVersion: String? = nil) {
        self.name = name
        self.osVersion = osVersion
    }
}
