import Dispatch

/// Exponential backoff between retries: 0.25 s, 0.5 s, 1 s, … capped at `maximum` seconds.
struct Backoff: Sendable {
    var initial: Double = 0.25
    var maximum: Double = 4

    /// The delay before retry number `attempt` (1-based), in seconds.
    func delay(forAttempt attempt: Int) -> Double {
        min(maximum, initial * Double(1 << min(attempt - 1, 20)))
    }

    /// Suspends the calling task for `seconds` without blocking a thread.
    static func pause(_ seconds: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
        }
    }
}
