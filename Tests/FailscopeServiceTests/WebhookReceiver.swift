import FailscopeModel
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// A webhook receiver on a loopback port: a real `HTTPServer` whose `POST /hook` records every request and answers
/// as its policy says for the request's event type and how many of that type came before, or holds the request
/// until ``releaseHeld()``.
final class WebhookReceiver: @unchecked Sendable {
    struct Received {
        var headers: HTTPHeaders
        var body: Data
        /// The status it was answered with (`nil` while held).
        var status: Int?

        var event: WebhookEvent? { try? WireCoding.decoder().decode(WebhookEvent.self, from: body) }
    }

    enum Answer {
        case status(Int)
        /// Keeps the request unanswered until ``releaseHeld()`` (then 200).
        case hold
        /// Answers 200 after this many seconds.
        case slow(Double)
    }

    private let lock = NSLock()
    private var received: [Received] = []
    /// The answer to the `index`-th request (from 0) whose `X-Failscope-Event` is `event`.
    typealias Policy = @Sendable (_ event: String, _ index: Int) -> Answer
    private var policy: Policy
    private var released = false
    private var server: HTTPServer!

    /// Starts listening.
    init(_ policy: @escaping Policy = { _, _ in .status(200) }) throws {
        self.policy = policy
        var router = Router(accessLog: DiscardingAccessLog())
        router.post("/hook", maxBodyBytes: 1 << 20) { [self] (request: Request) async throws -> Response in
            let event = request.headers["X-Failscope-Event"] ?? ""
            let (index, answer) = lock.withLock { () -> (Int, Answer) in
                let earlier = received.filter { $0.headers["X-Failscope-Event"] == event }.count
                received.append(Received(headers: request.headers, body: request.body, status: nil))
                return (received.count - 1, self.policy(event, earlier))
            }
            var status = 200
            switch answer {
            case .status(let code): status = code
            case .slow(let seconds): try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            case .hold:
                // Waits for the test's release (bounded, so a failing test cannot hang the suite).
                for _ in 0..<600 where !lock.withLock({ released }) { try await Task.sleep(nanoseconds: 50_000_000) }
            }
            lock.withLock { received[index].status = status }
            return .text("ok", status: HTTPStatus(code: status, reasonPhrase: "Scripted"))
        }
        server = try HTTPServer(responder: router, configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0))
    }

    var url: String { "http://127.0.0.1:\(server.port)/hook" }

    /// Everything received so far, in arrival order.
    var requests: [Received] { lock.withLock { received } }

    /// Answers from now on by `policy`.
    func answer(_ policy: @escaping Policy) { lock.withLock { self.policy = policy } }

    func releaseHeld() { lock.withLock { released = true } }

    func stop() {
        releaseHeld()
        server.shutdown()
        server.waitUntilStopped()
    }
}

/// Polls `condition` every 10 ms for up to `seconds`; fails at the caller's line when it never held.
@discardableResult
func waitFor(
    _ what: String, seconds: Double = 15, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool
) -> Bool {
    let deadline = DispatchTime.now() + seconds
    let tick = DispatchSemaphore(value: 0)
    while DispatchTime.now() < deadline {
        if condition() { return true }
        _ = tick.wait(timeout: .now() + .milliseconds(10))
    }
    if condition() { return true }
    XCTFail("timed out waiting for \(what)", file: file, line: line)
    return false
}
