import Foundation

/// The simulated device's screen, as `XCUIScreen.main`: what the foreground app shows now.
///
/// The app launched last is in the foreground until it terminates. The reporter asks for a
/// snapshot here when a test fails; it never needs a reference to the test's app.
public final class SimulatedScreen: @unchecked Sendable {
    public static let main = SimulatedScreen()

    private let lock = NSLock()
    private weak var foreground: SimulatedApp?

    /// The app in the foreground, if any runs.
    public var foregroundApp: SimulatedApp? { lock.withLock { foreground } }

    /// The foreground app's screen now, or `nil` when no app runs.
    public func snapshot() -> ScreenSnapshot? {
        foregroundApp?.snapshot()
    }

    /// The foreground app's screen now as a handle (see `ScreenSnapshotHandle`), or `nil` when no app runs.
    public func snapshotHandle() -> ScreenSnapshotHandle? {
        foregroundApp?.snapshotHandle()
    }

    func appDidLaunch(_ app: SimulatedApp) {
        lock.withLock { foreground = app }
    }

    func appDidTerminate(_ app: SimulatedApp) {
        lock.withLock {
            if foreground === app { foreground = nil }
        }
    }
}
