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
        guard name.hasSuffix(".xctest") || name == "xctest" || process.arguments.contains(where: { $0.hasSuffix(".xctest") })
        else { return }
        register()
    }
}

/// The process-wide recorder and observer, created on first use from the environment.
private final class RegistrationState: @unchecked Sendable {
    private let lock = NSLock()
    private var registered = false
    private var exitHookInstalled = false

    lazy var recorder: RunRecorder? = {
        let configuration = ReporterConfiguration.fromEnvironment()
        guard !configuration.isDisabled else { return nil }
        let api = configuration.serviceURL.map { APIClient(baseURL: $0, token: configuration.token) }
        return RunRecorder(configuration: configuration, capture: SimulatedScreenCapture(), api: api)
    }()

    lazy var observer: FailscopeObserver? = lock.withLock { recorder.map(FailscopeObserver.init) }

    func installExitHookOnce(_ body: () -> Void) {
        let first = lock.withLock {
            defer { exitHookInstalled = true }
            return !exitHookInstalled
        }
        if first { body() }
    }

    func registerOnce(_ body: () -> Void) {
        let first = lock.withLock {
            defer { registered = true }
            return !registered
        }
        if first { body() }
    }
}

#if os(Linux)
    /// Runs when the test binary loads (an `.init_array` entry), before XCTest starts the bundle.
    @used @section(".init_array")
    private let failscopeRegisterAtLoad: @convention(c) () -> Void = { FailscopeReporter.registerAtLoad() }
#endif
