import Foundation

/// Sends what a test process has written to the spool while its tests still run, so that a run's
/// counts move and its failures show on the dashboard as they happen, not only at the end.
///
/// `resultsWritten()` (called after each result batch reaches the spool) runs `upload` on a queue of
/// its own at once, or `interval` seconds after the previous one began, whichever is later; calls
/// meanwhile collapse into that one. An upload never blocks a test. `pause()` cancels a scheduled one
/// and waits for one in flight (before the end's own upload); later results schedule uploads again.
final class LiveUploader: @unchecked Sendable {
    private let queue = DispatchQueue(label: "failscope.live-upload")
    private let interval: Double
    private let upload: @Sendable () -> Void
    private let lock = NSLock()
    private var scheduled = false
    /// Bumped by `pause()`: a scheduled upload of an older generation does not run.
    private var generation = 0
    private var lastStart: DispatchTime?

    /// - Parameters:
    ///   - interval: the least time between two uploads' starts, in seconds.
    ///   - upload: one upload; its errors are its own (the next one, or the end, tries again).
    init(interval: Double, upload: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.upload = upload
    }

    /// New results are in the spool: an upload runs soon.
    func resultsWritten() {
        let plan = lock.withLock { () -> (DispatchTime, Int)? in
            guard !scheduled else { return nil }
            scheduled = true
            return (lastStart.map { $0 + interval } ?? .now(), generation)
        }
        guard let (deadline, planned) = plan else { return }
        queue.asyncAfter(deadline: max(deadline, .now())) { [self] in
            let go = lock.withLock { () -> Bool in
                guard planned == generation else { return false }
                scheduled = false
                lastStart = .now()
                return true
            }
            if go { upload() }
        }
    }

    /// Cancels a scheduled upload and returns once an upload in flight has ended.
    func pause() {
        lock.withLock {
            generation += 1
            scheduled = false
        }
        queue.sync {}
    }
}
