import Dispatch
import FailscopeTesting
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class ServerLifecycleTests: XCTestCase {
    func testBusyPortAndBadHostAreClearErrors() throws {
        let first = try HTTPServer(responder: Router(), configuration: HTTPServerConfiguration(port: 0, threadCount: 1))
        defer { first.shutdown(gracePeriod: 0) }
        XCTAssertThrowsError(
            try HTTPServer(
                responder: Router(), configuration: HTTPServerConfiguration(port: first.port, threadCount: 1))
        ) { error in
            XCTAssertEqual(error as? HTTPServerError, .cannotListen(host: "127.0.0.1", port: first.port))
        }
        XCTAssertThrowsError(
            try HTTPServer(responder: Router(), configuration: HTTPServerConfiguration(host: "example.com", port: 0))
        ) { error in
            XCTAssertEqual(error as? HTTPServerError, .invalidHost("example.com"))
        }
        XCTAssertThrowsError(try HTTPServer(responder: Router(), configuration: HTTPServerConfiguration(port: 70000))) {
            XCTAssertEqual($0 as? HTTPServerError, .invalidPort(70000))
        }
    }

    func testIPv6LoopbackServes() throws {
        var router = Router(accessLog: DiscardingAccessLog())
        router.get("/") { _ in .text("v6") }
        let server: HTTPServer
        do {
            server = try HTTPServer(responder: router, configuration: HTTPServerConfiguration(host: "::1", port: 0))
        } catch {
            throw XCTSkip("No IPv6 loopback here: \(error)")
        }
        XCTAssertGreaterThan(server.port, 0)
        server.shutdown(gracePeriod: 0)
        XCTAssertTrue(server.isStopped)
    }

    func testShutdownIsIdempotentAndWaitReturnsAfterwards() throws {
        let server = try HTTPServer(
            responder: Router(), configuration: HTTPServerConfiguration(port: 0, threadCount: 1))
        let port = server.port
        server.shutdown()
        server.shutdown()
        server.waitUntilStopped()
        XCTAssertTrue(server.isStopped)
        XCTAssertThrowsError(try RawHTTPClient(port: port), "the port still accepts connections")
    }

    func testSignalRunsTheShutdownAction() {
        // SIGWINCH: its default action is to ignore, so raising it again after the handling is restored is harmless.
        // The source registers asynchronously, so keep raising until the action runs.
        let calls = DispatchSemaphore(value: 0)
        let signals = ShutdownSignals.install(signals: [SIGWINCH]) { number in
            XCTAssertEqual(number, SIGWINCH)
            calls.signal()
        }
        defer { signals.cancel() }
        var answered = false
        for _ in 0..<250 where !answered {
            raise(SIGWINCH)
            answered = calls.wait(timeout: .now() + .milliseconds(20)) == .success
        }
        XCTAssertTrue(answered, "the shutdown action never ran")
    }
}
