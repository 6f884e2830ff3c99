import Foundation

/// The app's clock: virtual time in seconds that advances only when a wait or an action asks it to.
///
/// Transitions and data loads are scheduled on it; a wait with a 5 s timeout jumps from event to
/// event and costs no wall time, and the same seed gives the same run. Not thread-safe on its own:
/// the owning `SimulatedApp` serializes every use under its lock.
public final class VirtualClock: @unchecked Sendable {
    /// What an event is, for the idle rule: actions wait for animations (as XCUITest waits for the
    /// app to be idle) but not for background work such as data loads.
    public enum EventKind: Sendable {
        case animation
        case background
    }

    struct Event {
        var time: Double
        var sequence: Int
        var kind: EventKind
        var action: () -> Void
    }

    /// Seconds since the clock was created.
    public private(set) var now: Double = 0
    private var events: [Event] = []
    private var sequence = 0

    public init() {}

    /// Schedules `action` to run when the clock reaches `now + delay` (seconds, clamped at 0).
    func schedule(after delay: Double, kind: EventKind, _ action: @escaping () -> Void) {
        sequence += 1
        events.append(Event(time: now + max(0, delay), sequence: sequence, kind: kind, action: action))
    }

    /// The time of the next pending event, optionally only of one kind.
    func nextEventTime(kind: EventKind? = nil) -> Double? {
        events.lazy.filter { kind == nil || $0.kind == kind }.map(\.time).min()
    }

    /// Removes every pending event (the app was terminated).
    func cancelAll() {
        events.removeAll()
    }

    /// Moves the clock to `time` (never backwards), running every event due by then in time order.
    /// Returns whether any event ran.
    @discardableResult
    func advance(to time: Double) -> Bool {
        var ran = false
        while let index = nextDueIndex(by: time) {
            let event = events.remove(at: index)
            now = max(now, event.time)
            event.action()
            ran = true
        }
        now = max(now, time)
        return ran
    }

    private func nextDueIndex(by time: Double) -> Int? {
        var best: Int?
        for (index, event) in events.enumerated() where event.time <= time {
            if let current = best {
                let other = events[current]
                if (event.time, event.sequence) < (other.time, other.sequence) { best = index }
            } else {
                best = index
            }
        }
        return best
    }
}
