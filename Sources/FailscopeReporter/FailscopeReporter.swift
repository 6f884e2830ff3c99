import FailscopeClient
import FailscopeModel
import Foundation
import XCTest

/// Adopting Failscope: depend on the `FailscopeReporter` product; on Linux that is all (the
/// observer registers itself when the test binary loads). Elsewhere, or to be explicit, call
/// `FailscopeReporter.register()` once, e.g. in the test bundle's principal class or a base test
/// case's `override init(...)`: registering in `class func setUp()` is too late (it misses the
/// bundle start and some suites). Registration is idempotent.
///
/// Screens are captured by a plug-in registered with `useScreenCapture(_:)` (the simulated screen's
/// is in the `FailscopeSimulatedScreen` product; `PageObjects.UITestCase` registers it); without one,
/// failures are recorded without a screenshot and runs without a device.
///
/// Configuration comes from the environment (`ReporterConfiguration`); with `FAILSCOPE_DISABLED=1`
/// nothing is recorded. The reporter never writes to stdout (it would break `swift test --filter`).
public enum FailscopeReporter {
    private static let state = RegistrationState()

    /// The recorder of this process, or `nil` when the reporter is disabled.
    public static var recorder: RunRecorder? { state.recorder }

    /// Registers the XCTest observer once; later calls do nothing.
    public static func register() {
        guard let observer = state.observer else { return }
        state.registerOnce { XCTestObservationCenter.shared.addTestObserver(observer) }
    }

    /// Captures failing tests' screens with `capture` from now on (the last registration wins); its
    /// device becomes the run's. Cheap enough to call before every test.
    public static func useScreenCapture(_ capture: any ScreenCapture) {
        state.recorder?.useScreenCapture(capture)
    }

    /// Uploads whatever the recorder holds when the process exits (Swift Testing has no bundle end).
    public static func finishAtExit() {
        state.installExitHookOnce {
            // atexit handlers run in reverse order of registration, and libcrypto registers its
            // cleanup at first use. Use it first, so the upload below runs before that cleanup
            // (hashing after it crashed the process at exit).
            _ = SHA256.hex(of: Data())
            atexit {
                if let line = FailscopeReporter.recorder?.finish() {
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                }
            }
        }
    }

    /// The load-time entry point: registers only inside an XCTest runner process.
    static func registerAtLoad() {
        let process = ProcessInfo.processInfo
        let name = process.processName
        guard
            name.hasSuffix(".xctest") || name == "xctest"
                || process.arguments.contains(where: { $0.hasSuffix(".xctest") })
        else { return }
        register()
    }
}

/// The process-wide recorder and observer, created once, on first use, from the environment.
/// Thread-safe: XCTest's main thread and Swift Testing's tasks may ask at the same time.
private final class RegistrationState: @unchecked Sendable {
    private let lock = NSLock()
    private var created = false
    private var createdRecorder: RunRecorder?
    private var createdObserver: FailscopeObserver?
    private var registered = false
    private var exitHookInstalled = false

    var recorder: RunRecorder? { create().recorder }
    var observer: FailscopeObserver? { create().observer }

    private func create() -> (recorder: RunRecorder?, observer: FailscopeObserver?) {
        lock.withLock {
            if !created {
                created = true
                let configuration = ReporterConfiguration.fromEnvironment()
                if !configuration.isDisabled {
                    let api = configuration.serviceURL.map { APIClient(baseURL: $0, token: configuration.token) }
                    let recorder = RunRecorder(configuration: configuration, api: api)
                    createdRecorder = recorder
                    createdObserver = FailscopeObserver(recorder: recorder)
                }
            }
            return (createdRecorder, createdObserver)
        }
    }

    /// Runs `body` the first time only.
    func installExitHookOnce(_ body: () -> Void) {
        if once(\.exitHookInstalled) { body() }
    }

    /// Runs `body` the first time only.
    func registerOnce(_ body: () -> Void) {
        if once(\.registered) { body() }
    }

    private func once(_ flag: ReferenceWritableKeyPath<RegistrationState, Bool>) -> Bool {
        lock.withLock {
            defer { self[keyPath: flag] = true }
            return !self[keyPath: flag]
        }
    }
}

#if os(Linux)
    /// Runs when the test binary loads (an `.init_array` entry), before XCTest starts the bundle.
    @used @section(".init_array")
    private let failscopeRegisterAtLoad: @convention(c) () -> Void = { FailscopeReporter.registerAtLoad() }
#endif
