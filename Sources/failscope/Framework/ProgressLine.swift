import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Progress of a long command on standard error, one step (`copy`'s tables) after another. On a terminal:
/// one line redrawn in place, `copy: results [########------------] 40% 400000/1000000`, at most ten
/// times a second, ended by a newline when the step is done. Elsewhere (a log, CI): a line at each tenth
/// of a step, `copy: results 40% 400000/1000000`.
struct ProgressLine {
    /// Written before each step's name.
    var prefix: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var step = ""
    private var tenthsShown = -1
    private var drawnAt = Date.distantPast
    private var lineOpen = false
    private static let width = 20

    init(prefix: String) { self.prefix = prefix }

    /// Reports `done` of `total` units of `step`; a new name starts a new step.
    mutating func update(_ step: String, done: Int, total: Int) {
        if step != self.step {
            finishLine()
            self.step = step
            tenthsShown = -1
        }
        let fraction = total > 0 ? min(1, Double(max(done, 0)) / Double(total)) : 1
        let percent = Int(fraction * 100)
        let counts = "\(percent)% \(done)/\(total)"
        guard isTerminal else {
            let tenths = Int(fraction * 10)
            guard tenths > tenthsShown else { return }
            tenthsShown = tenths
            printError("\(prefix)\(step) \(counts)")
            return
        }
        let now = Date()
        guard done >= total || now.timeIntervalSince(drawnAt) >= 0.1 else { return }
        drawnAt = now
        let filled = Int(fraction * Double(Self.width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
        // Carriage return and erase to the end of the line (ECMA-48 EL).
        FileHandle.standardError.write(Data("\r\u{1B}[K\(prefix)\(step) [\(bar)] \(counts)".utf8))
        lineOpen = true
        if done >= total { finishLine() }
    }

    /// Ends a line drawn in place.
    mutating func finishLine() {
        guard lineOpen else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        lineOpen = false
    }
}
