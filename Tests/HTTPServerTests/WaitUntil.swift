import Dispatch

/// Polls `condition` every 5 ms for up to `seconds`; whether it became true. For states another thread reaches
/// (a connection counted, a server stopped) that no callback announces.
func waitUntil(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + seconds
    let tick = DispatchSemaphore(value: 0)
    while DispatchTime.now() < deadline {
        if condition() { return true }
        _ = tick.wait(timeout: .now() + .milliseconds(5))
    }
    return condition()
}
