import Foundation

/// A simulated app process on a simulated device, driven the way XCUITest drives an `XCUIApplication`.
///
/// Create it with the app's `AppProgram` type, set `launchArguments` / `launchEnvironment`, then
/// `launch()`. Query elements lazily (`app.buttons["login.submit"]`); queries are resolved against
/// the current screen each time they are used. Actions wait for the app's animations to finish
/// (its idle state) before returning; data loads run on the app's `VirtualClock` and are only
/// waited for by explicit waits. Thread-safe: every use is serialized on the app's lock.
public final class SimulatedApp: @unchecked Sendable, CustomDebugStringConvertible {
    /// Whether the app runs, as `XCUIApplication.State`.
    public enum State: Sendable, Equatable {
        case notRunning
        case runningForeground
    }

    /// Receives a failed interaction: the message and the file and line it is blamed on (the
    /// caller's `#filePath`/`#line`, threaded through page objects). `PageObjects` routes it to `XCTFail`.
    public typealias FailureHandler = @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void

    public let device: Device
    public let clock: VirtualClock
    public var launchArguments: [String] {
        get { lock.withLock { arguments } }
        set { lock.withLock { arguments = newValue } }
    }
    public var launchEnvironment: [String: String] {
        get { lock.withLock { environment } }
        set { lock.withLock { environment = newValue } }
    }
    public var state: State { lock.withLock { program == nil ? .notRunning : .runningForeground } }
    /// Where failed interactions go; by default a line on standard error.
    public var failureHandler: FailureHandler {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    let programType: any AppProgram.Type
    let lock = NSRecursiveLock()
    private var arguments: [String] = []
    private var environment: [String: String] = [:]
    private var handler: FailureHandler = SimulatedApp.standardErrorHandler
    private var program: (any AppProgram)?
    private var tree: ElementNode?
    private var focusKey: String?
    private var scrollOffsets: [String: Double] = [:]

    /// - Parameters:
    ///   - program: the app's code.
    ///   - device: the simulated device; by default the one `FAILSCOPE_DEVICE` names (iPhone 15).
    ///   - clock: the app's clock; a fresh virtual clock by default.
    public init(_ program: any AppProgram.Type, device: Device = .current, clock: VirtualClock = VirtualClock()) {
        self.programType = program
        self.device = device
        self.clock = clock
    }

    // MARK: Process

    /// Starts the app (terminating a running instance first) and waits for its launch animations.
    public func launch() {
        lock.withLock {
            if program != nil { terminateLocked() }
            let context = AppContext(
                launchArguments: arguments, launchEnvironment: environment, device: device, clock: clock,
                didChange: { [weak self] in self?.invalidate() })
            program = programType.init(context: context)
            invalidate()
            settle()
        }
        SimulatedScreen.main.appDidLaunch(self)
    }

    /// Stops the app: its state, pending work, focus and scroll positions are gone.
    public func terminate() {
        lock.withLock { terminateLocked() }
        SimulatedScreen.main.appDidTerminate(self)
    }

    private func terminateLocked() {
        program = nil
        clock.cancelAll()
        focusKey = nil
        scrollOffsets = [:]
        invalidate()
    }

    // MARK: The element tree

    /// An immutable copy of the current screen: device, element tree and clock time.
    public func snapshot() -> ScreenSnapshot {
        withTree { ScreenSnapshot(device: device, root: $0.snapshot, time: clock.now) }
    }

    /// The current screen as a handle: a reference to its element tree, made into a snapshot only when asked.
    public func snapshotHandle() -> ScreenSnapshotHandle {
        withTree { ScreenSnapshotHandle(device: device, root: $0, time: clock.now) }
    }

    /// The element tree as XCUITest prints it: one line an element, indented by depth.
    public var debugDescription: String {
        let snapshot = snapshot()
        return "Attributes: \(ElementSnapshot.line(for: snapshot.root))\nElement subtree:\n"
            + snapshot.treeDescription
    }

    /// The name of the screen showing: its navigation bar's title, for failure messages.
    var screenName: String {
        withTree { root in
            let bar = root.descendants.first { $0.elementType == .navigationBar }
            return bar.map { "\"\($0.identifier)\"" } ?? "(no navigation bar)"
        }
    }

    func withTree<T>(_ body: (ElementNode) -> T) -> T {
        lock.withLock {
            if tree == nil {
                let layout = ScreenLayout(
                    device: device, scrollOffsets: scrollOffsets, focusKey: focusKey,
                    appName: String(describing: programType))
                if let program {
                    tree = layout.build(program.body())
                } else {
                    let root = ElementNode(.application, frame: .zero)
                    root.key = "app"
                    tree = root
                }
            }
            return body(tree!)
        }
    }

    func invalidate() {
        lock.withLock { tree = nil }
    }

    // MARK: Actions and waits

    /// Resolves `element` to exactly one hittable element of the running app and runs `body` on it,
    /// then waits for the app's animations. Reports a failure (and does nothing) otherwise.
    func perform(
        _ action: String, on element: SimulatedElement, requireHittable: Bool = true, file: StaticString, line: UInt,
        _ body: (ElementNode) -> Void
    ) {
        lock.withLock {
            guard program != nil else {
                return fail("Failed to \(action) \(element.description): the app is not running.", file, line)
            }
            let failure: String? = withTree { root in
                let matches = element.locate(root)
                guard let node = matches.first else {
                    return
                        "Failed to \(action) \(element.description): no matches found on screen \(screenName) (\(device.name))."
                }
                guard matches.count == 1 else {
                    return "Failed to \(action) \(element.description): multiple matching elements found on screen "
                        + "\(screenName):\n" + matches.map { "  " + $0.line }.joined(separator: "\n")
                }
                guard !requireHittable || node.isHittable else {
                    return "Failed to \(action) \(element.description): the element is not hittable on screen "
                        + "\(screenName) (\(node.line))."
                }
                body(node)
                return nil
            }
            if let failure { return fail(failure, file, line) }
            invalidate()
            settle()
        }
    }

    /// Reports a failed interaction to the failure handler.
    func fail(_ message: String, _ file: StaticString, _ line: UInt) {
        let handler = lock.withLock { self.handler }
        handler(message, file, line)
    }

    /// Advances the clock until `condition` holds or `timeout` seconds of app time pass, jumping
    /// from one scheduled event to the next (no wall time is spent waiting).
    func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        lock.withLock {
            let deadline = clock.now + max(0, timeout)
            while true {
                if condition() { return true }
                guard let next = clock.nextEventTime(), next <= deadline else {
                    clock.advance(to: deadline)
                    invalidate()
                    return condition()
                }
                clock.advance(to: next)
                invalidate()
            }
        }
    }

    /// Waits for pending animations (the app's idle state), at most 10 s of app time.
    func settle() {
        let limit = clock.now + 10
        while let next = clock.nextEventTime(kind: .animation), next <= limit {
            clock.advance(to: next)
        }
        invalidate()
    }

    func setFocus(_ key: String?) {
        lock.withLock { focusKey = key }
    }

    /// Scrolls the container by `delta` points (positive moves the content up), clamped to its content.
    func scroll(_ container: ElementNode, by delta: Double) {
        lock.withLock {
            let maximum = max(0, container.contentHeight - container.frame.height)
            scrollOffsets[container.key] = min(max(0, container.contentOffset + delta), maximum)
        }
    }

    private static let standardErrorHandler: FailureHandler = { message, file, line in
        FileHandle.standardError.write(Data("\(file):\(line): SimulatedUI: \(message)\n".utf8))
    }
}

extension Device {
    /// The device `FAILSCOPE_DEVICE` names, iPhone 15 when unset or unknown (UI test cases check
    /// the variable strictly through `Device.fromEnvironment()`).
    public static var current: Device { (try? fromEnvironment()) ?? .iPhone15 }
}
