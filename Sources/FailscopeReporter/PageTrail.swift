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
///
/// The action trace (docs/trace.md): while a recorder records a test it gives the trail a source of element
/// trees (its capture plug-in's `snapshotElementTree()`), and each step keeps the tree as it was when the
/// step was recorded (for an action made of several base-page steps, as it was at the last: after its wait).
/// Trees stay in memory, only the last `treeLimit` steps' (older steps drop theirs), and are encoded only
/// when the test fails.
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
        /// When the step was recorded (its duration runs to the next step's).
        public var startedAt: Date

        public init(
            page: String, action: String?, file: String, line: Int, targetFrame: CGRect? = nil, startedAt: Date = Date()
        ) {
            self.page = page
            self.action = action
            self.file = file
            self.line = line
            self.targetFrame = targetFrame
            self.startedAt = startedAt
        }

        /// The step as a result carries it (without its trace: see `RunRecorder`).
        public var trailStep: TrailStep {
            TrailStep(page: page, action: action, callSite: SourceLocation(file: file, line: line))
        }
    }

    /// How many of the newest steps keep their element tree (a few hundred kilobytes of values at most).
    public static let treeLimit = 64

    /// The trail of the test running in this process.
    public static let shared = PageTrail()

    private let lock = NSLock()
    private var recorded: [Step] = []
    private var failed = false
    private var stepAdded: (@Sendable (Step) -> Void)?
    private var treeSource: (@Sendable () -> (any ElementTreeSnapshot)?)?
    /// Element trees by step index, only the newest `treeLimit` steps'.
    private var trees: [Int: any ElementTreeSnapshot] = [:]

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
            trees = [:]
            failed = false
        }
    }

    /// Takes an element tree for each step from now on from `source` (`nil`: no trees; the recorder sets it
    /// for the test it records and clears it at the test's end).
    public func useElementTrees(from source: (@Sendable () -> (any ElementTreeSnapshot)?)?) {
        lock.withLock { treeSource = source }
    }

    /// The element trees kept, by index in `steps`.
    public var elementTrees: [Int: any ElementTreeSnapshot] { lock.withLock { trees } }

    /// Makes `tree` the last step's (the screen captured at a failure is the failing step's tree).
    public func replaceLastTree(with tree: any ElementTreeSnapshot) {
        lock.withLock {
            guard !recorded.isEmpty else { return }
            trees[recorded.count - 1] = tree
        }
    }

    /// Records entering `page` (not after the test's first failure: the test stopped there).
    public func enter(page: String, file: String, line: Int) {
        let tree = currentTree()
        let (added, listener) = lock.withLock { () -> (Step?, (@Sendable (Step) -> Void)?) in
            guard !failed else { return (nil, nil) }
            let step = Step(page: page, action: nil, file: file, line: line)
            recorded.append(step)
            keep(tree)
            return (step, stepAdded)
        }
        if let added, let listener { listener(added) }
    }

    /// Records `page.action` called from `file:line`. Repeated calls from the same page method and
    /// call site (one action made of several base-page steps) update the step instead of adding one.
    public func record(page: String, action: String, file: String, line: Int, targetFrame: CGRect?) {
        let tree = currentTree()
        let (added, listener) = lock.withLock { () -> (Step?, (@Sendable (Step) -> Void)?) in
            guard !failed else { return (nil, nil) }
            if var last = recorded.last, last.page == page, last.action == action, last.file == file, last.line == line
            {
                last.targetFrame = targetFrame ?? last.targetFrame
                recorded[recorded.count - 1] = last
                if let tree { trees[recorded.count - 1] = tree }
                return (nil, nil)
            }
            let step = Step(page: page, action: action, file: file, line: line, targetFrame: targetFrame)
            recorded.append(step)
            keep(tree)
            return (step, stepAdded)
        }
        if let added, let listener { listener(added) }
    }

    /// The tree now from the source, taken outside the lock (the source reads the app's own state).
    private func currentTree() -> (any ElementTreeSnapshot)? {
        guard let source = lock.withLock({ failed ? nil : treeSource }) else { return nil }
        return source()
    }

    /// Keeps `tree` as the newest step's and drops the tree that falls out of the last `treeLimit`; the
    /// caller holds `lock`.
    private func keep(_ tree: (any ElementTreeSnapshot)?) {
        let index = recorded.count - 1
        if let tree { trees[index] = tree }
        trees[index - Self.treeLimit] = nil
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
