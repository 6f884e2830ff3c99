import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `X <signal> <unix milliseconds>` to the spool journal when the test process dies of a signal (a `fatalError`
/// or a trap is SIGILL or SIGTRAP, a bad access SIGSEGV or SIGBUS, an `abort()` SIGABRT), so the
/// test that was running is recorded as crashed with that signal (`TestJournal`).
///
/// The handler does only async-signal-safe work: it formats the number into a buffer made at
/// installation and makes one `write(2)`. Then it puts back the handler that was there before
/// (Swift's backtracer, or the default) and raises the signal again, so the process dies as it
/// would have without Failscope, with the same exit status and crash report.
enum CrashSignals {
    static let caught: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]

    /// Installs the handlers once, writing to `descriptor` (which must stay open for the process's life).
    static func install(journal descriptor: Int32) {
        guard descriptor >= 0, crashJournal.descriptor < 0 else { return }
        crashJournal.descriptor = descriptor
        for signal in caught {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = crashSignalHandler
            #else
                action.__sigaction_u.__sa_handler = crashSignalHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, crashJournal.previous + Int(signal))
        }
    }
}

/// What the handler reads: made once before the handlers are installed, never freed; plain
/// pointers, so the handler neither allocates nor retains.
private final class CrashJournal: @unchecked Sendable {
    var descriptor: Int32 = -1
    let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    let line = UnsafeMutablePointer<UInt8>.allocate(capacity: 48)

    init() {
        previous.initialize(repeating: sigaction(), count: 65)
    }
}

private let crashJournal = CrashJournal()

private func crashSignalHandler(_ signal: Int32) {
    // "\nX <signal> <unix milliseconds>\n": the leading newline ends a line the crash may have cut;
    // clock_gettime is async-signal-safe (POSIX.1-2008, 2.4.3).
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let line = crashJournal.line
    var length = 0
    func put(_ byte: UInt8) {
        line[length] = byte
        length += 1
    }
    func put(number: Int) {
        var digits = 1
        while number / digits >= 10 { digits *= 10 }
        var rest = number
        repeat {
            put(UInt8(ascii: "0") + UInt8(rest / digits))
            rest %= digits
            digits /= 10
        } while digits > 0
    }
    put(UInt8(ascii: "\n"))
    put(UInt8(ascii: "X"))
    put(UInt8(ascii: " "))
    put(number: Int(signal))
    put(UInt8(ascii: " "))
    put(number: Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000)
    put(UInt8(ascii: "\n"))
    _ = write(crashJournal.descriptor, line, length)
    sigaction(signal, crashJournal.previous + Int(signal), nil)
    raise(signal)
}
