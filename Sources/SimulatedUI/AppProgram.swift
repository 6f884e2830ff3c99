/// The code of an app that runs on the simulated screen: state, and a body computed from it.
///
/// `SimulatedApp.launch()` creates a fresh instance with the launch context; every query asks for
/// `body()` again, as SwiftUI asks a view for its body, so the element tree always reflects the
/// current state. Handlers in the body (taps, text changes) mutate the state; work that takes time
/// is scheduled on `context` (animations, which actions wait for, or background loads, which only
/// explicit waits wait for).
public protocol AppProgram: AnyObject {
    /// A fresh app process.
    init(context: AppContext)
    /// What the app shows now.
    func body() -> AppScreen
}

/// What a launched app knows about its process and how it schedules work on the app's clock.
public final class AppContext {
    public let launchArguments: [String]
    public let launchEnvironment: [String: String]
    public let device: Device
    private let clock: VirtualClock
    private let didChange: () -> Void

    init(
        launchArguments: [String], launchEnvironment: [String: String], device: Device, clock: VirtualClock,
        didChange: @escaping () -> Void
    ) {
        self.launchArguments = launchArguments
        self.launchEnvironment = launchEnvironment
        self.device = device
        self.clock = clock
        self.didChange = didChange
    }

    /// Seconds on the app's clock.
    public var now: Double { clock.now }

    /// Runs `change` after `delay` seconds of app time. Animations (navigation transitions) are
    /// waited for by every action; background work (data loads) only by explicit waits.
    public func after(_ delay: Double, kind: VirtualClock.EventKind = .animation, _ change: @escaping () -> Void) {
        clock.schedule(after: delay, kind: kind) { [didChange] in
            change()
            didChange()
        }
    }
}
