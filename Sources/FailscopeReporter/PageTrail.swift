import FailscopeModel
import Foundation

/// The page trail of the running test: each page entered and each page action called, with the
/// test's call site (`#filePath`/`#line` threaded through the page object) and the frame of the
/// element the action targeted.
///
/// A page-object base writes it (`PageObjects.BasePage` does); the recorder reads it when a test fails
/// ("LoginPage.tapLogin() called from LoginTests.swift:42"), stores its steps with the result, and
/// resets it when a test starts. It lives in the reporter so that any page-object library can feed it
/// without the reporter knowing that library. Thread-safe.
public final class PageTrail: @unchecked Sendable {
    /// One step: a page entered (`action == nil`) or a page method called.
    public struct Step: Sendable, Equatable {
        /// The page object's type name: `LoginPage`.
        public var page: String
        /// The page method: `tapLogin()`; `nil` when the step enters the page.
        public var action: String?
        /// The test's file and line that made the call.
        public var file: String
        public var line: Int
        /// The frame (points, screen coordinates) of the element the action targeted, when it existed.
        public var targetFrame: CGRect?

        public init(page: String, action: String?, file: String, line: Int, targetFrame: CGRect? = nil) {
            self.page = page
            self.action = action
            self.file = file
            self.line = line
            self.targetFrame = targetFrame
        }

        /// The step as a result carries it.
        public var trailStep: TrailStep {
            TrailStep(page: page, action: action, callSite: SourceLocation(file: file, line: line))
        }
    }

    /// The trail of the test running in this process.
    public static let shared = PageTrail()

    private let lock = NSLock()
    private var recorded: [Step] = []
    private var failed = false
    private var stepAdded: (@Sendable (Step) -> Void)?

    public init() {}

    /// Calls `listener` with every step added from now on (not with updates of the last one), on the
    /// thread that added it, after the trail's lock is released; replaces the previous listener. The
    /// recorder writes the steps to the spool's journal, so a crash keeps the trail up to it.
    public func onStepAdded(_ listener: @escaping @Sendable (Step) -> Void) {
        lock.withLock { stepAdded = listener }
    }

    /// Every step so far, in order.
    public var steps: [Step] { lock.withLock { recorded } }

    /// The last step: the page and action running when a failure happens.
    public var current: Step? { lock.withLock { recorded.last } }

    /// Whether a failure has been recorded in this test (the base page stops acting after it).
    public var hasFailed: Bool { lock.withLock { failed } }

    /// Forgets everything: a new test starts.
    public func reset() {
        lock.withLock {
            recorded = []
            failed = false
        }
    }

    /// Records entering `page` (not after the test's first failure: the test stopped there).
    public func enter(page: String, file: String, line: Int) {
        let (added, listener) = lock.withLock { () -> (Step?, (@Sendable (Step) -> Void)?) in
            guard !failed else { return (nil, nil) }
            let step = Step(page: page, action: nil, file: file, line: line)
            recorded.append(step)
            return (step, stepAdded)
        }
        if let added, let listener { listener(added) }
    }

    /// Records `page.action` called from `file:line`. Repeated calls from the same page method and
    /// call site (one action made of several base-page steps) update the step instead of adding one.
    public func record(page: String, action: String, file: String, line: Int, targetFrame: CGRect?) {
        let (added, listener) = lock.withLock { () -> (Step?, (@Sendable (Step) -> Void)?) in
            guard !failed else { return (nil, nil) }
            if var last = recorded.last, last.page == page, last.action == action, last.file == file, last.line == line
            {
                last.targetFrame = targetFrame ?? last.targetFrame
                recorded[recorded.count - 1] = last
                return (nil, nil)
            }
            let step = Step(page: page, action: action, file: file, line: line, targetFrame: targetFrame)
            recorded.append(step)
            return (step, stepAdded)
        }
        if let added, let listener { listener(added) }
    }

    /// Marks the test failed; returns whether it had failed before.
    @discardableResult
    public func markFailed() -> Bool {
        lock.withLock {
            defer { failed = true }
            return failed
        }
    }
}
