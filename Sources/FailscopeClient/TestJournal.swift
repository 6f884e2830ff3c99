import FailscopeModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal of a writer folder: what a process that dies in the middle of a test leaves behind.
///
/// One line an event, a tag letter, a space, then JSON (the wire format of `WireJSONWriter`):
/// ```
/// S {TestResult}   a test started (suite, name, arguments, attempt, startedAt)
/// P {TrailStep}    the test that started last called a page object
/// E {TestResult}   a test ended, with its result (before the result reaches a batch file)
/// X 11 1764600000123  the process caught signal 11 at that time (Unix ms; by the crash handler)
/// ```
/// Lines are appended with single `write(2)` calls on an `O_APPEND` descriptor, without `fsync`: the
/// journal outlives a crashed process (the kernel keeps the written pages), not a crashed machine.
/// A torn last line is ignored.
public enum TestJournal {
    /// The journal line of a test that starts.
    public static func started(_ result: TestResult) -> Data { line("S", WireJSONWriter.encode(result)) }

    /// The journal line of a test that ended with a result encoded by `WireJSONWriter.encode(_:)`.
    public static func ended(_ encodedResult: Data) -> Data { line("E", encodedResult) }

    /// The journal line of a page-object call of the test that started last.
    public static func step(_ step: TrailStep) -> Data {
        var json = WireJSONWriter(capacity: 160)
        json.write(step)
        return line("P", json.data)
    }

    private static func line(_ tag: String, _ json: Data) -> Data {
        var line = Data(capacity: json.count + 3)
        line.append(contentsOf: tag.utf8)
        line.append(UInt8(ascii: " "))
        line.append(json)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// The key that matches a journal entry with a result in a batch file: the test and its attempt
    /// (not the device, which a test may report only at its end).
    public static func key(of result: TestResult) -> String {
        result.resultKeyTestPart + "\u{1F}" + String(result.attempt)
    }

    /// The same key for a result as the service lists it.
    public static func key(of result: ResultSummary) -> String {
        key(
            of: TestResult(
                suite: result.suite, name: result.name, arguments: result.arguments, attempt: result.attempt,
                status: result.status))
    }

    /// The results a journal holds that are not among `stored` (keys from `key(of:)`): the ended
    /// tests as they ended, and (`crashed`) each test that started and never ended as an `error` result whose
    /// failure says the process crashed (naming the signal when one was caught), with its page trail
    /// and the last page action as the failure's page, action and call site.
    /// Each list is in the order its tests started.
    public static func results(in journal: Data, excluding stored: Set<String>)
        -> (ended: [TestResult], crashed: [TestResult])
    {
        var order: [String] = []
        var started: [String: TestResult] = [:]
        var ended: [String: TestResult] = [:]
        var signal: Int32?
        var crashedAt: Date?
        var last: String?
        let decoder = WireCoding.decoder()
        for line in journal.split(separator: UInt8(ascii: "\n")) where line.count > 2 {
            let tag = line[line.startIndex]
            let body = Data(line.dropFirst(2))
            switch tag {
            case UInt8(ascii: "S"), UInt8(ascii: "E"):
                guard let result = try? decoder.decode(TestResult.self, from: body) else { continue }
                let key = key(of: result)
                if tag == UInt8(ascii: "S") {
                    if started[key] == nil { order.append(key) }
                    started[key] = result
                    last = key
                } else {
                    if started[key] == nil { order.append(key) }
                    ended[key] = result
                }
            case UInt8(ascii: "P"):
                guard let last, let step = try? decoder.decode(TrailStep.self, from: body) else { continue }
                started[last]?.trail.append(step)
            case UInt8(ascii: "X"):
                let fields = String(decoding: body, as: UTF8.self).split(separator: " ")
                signal = fields.first.flatMap { Int32($0) }
                crashedAt = fields.dropFirst().first.flatMap { Double($0) }.map {
                    Date(timeIntervalSince1970: $0 / 1000)
                }
            default:
                continue
            }
        }
        let missing = order.filter { !stored.contains($0) }
        let crashed = missing.filter { ended[$0] == nil }.compactMap { started[$0] }
        return (
            missing.compactMap { ended[$0] }, crashed.map { crashResult(of: $0, signal: signal, at: crashedAt) }
        )
    }

    /// `started` as an `error` result of a crash: its last page step is the failure's page, action
    /// and call site; it lasted until the crash when the handler said when.
    static func crashResult(of started: TestResult, signal: Int32?, at crashedAt: Date?) -> TestResult {
        var result = started
        result.status = .error
        if let crashedAt, let startedAt = started.startedAt {
            // Both in whole milliseconds, rounded apart: a crash at once may read as just before the start.
            result.duration = max(0, crashedAt.timeIntervalSince(startedAt))
        }
        let step = result.trail.last
        let action = step.flatMap { step in step.action.map { "\(step.page).\($0)" } }
        result.failures = [
            Failure(
                message: crashMessage(signal: signal), page: step?.page, action: action, callSite: step?.callSite,
                isError: true)
        ]
        return result
    }

    /// "the test process crashed: signal 4 (SIGILL)", or, without a caught signal, that the process
    /// ended before the test did.
    static func crashMessage(signal: Int32?) -> String {
        guard let signal else {
            return "the test process ended before this test finished (killed, or it exited without a caught signal)"
        }
        let names: [Int32: String] = [
            SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
            SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM",
        ]
        return "the test process crashed: signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }
}
