import Dispatch
import Foundation
import HTTPServer
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class ServerLifecycleTests: XCTestCase {
    func testBusyPortAndBadHostAreClearErrors() throws {
        let first = try HTTPServer(router: Router(), configuration: HTTPServerConfiguration(port: 0, threadCount: 1))
        defer { first.shutdown(gracePeriod: 0) }
        XCTAssertThrowsError(
            try HTTPServer(router: Router(), configuration: HTTPServerConfiguration(port: first.port, threadCount: 1))
        ) { error in
            XCTAssertEqual(error as? HTTPServerError, .cannotListen(host: "127.0.0.1", port: first.port))
        }
        XCTAssertThrowsError(
            try HTTPServer(router: Router(), configuration: HTTPServerConfiguration(host: "example.com", port: 0))
        ) { error in
            XCTAssertEqual(error as? HTTPServerError, .invalidHost("example.com"))
        }
        XCTAssertThrowsError(try HTTPServer(router: Router(), configuration: HTTPServerConfiguration(port: 70000))) {
            XCTAssertEqual($0 as? HTTPServerError, .invalidPort(70000))
        }
    }

    func testIPv6LoopbackServes() throws {
        var router = Router(accessLog: DiscardingAccessLog())
        router.get("/") { _ in .text("v6") }
        let server: HTTPServer
        do {
            server = try HTTPServer(router: router, configuration: HTTPServerConfiguration(host: "::1", port: 0))
        } catch {
            throw XCTSkip("No IPv6 loopback here: \(error)")
        }
        XCTAssertGreaterThan(server.port, 0)
        server.shutdown(gracePeriod: 0)
        XCTAssertTrue(server.isStopped)
    }

    func testShutdownIsIdempotentAndWaitReturnsAfterwards() throws {
        let server = try HTTPServer(router: Router(), configuration: HTTPServerConfiguration(port: 0, threadCount: 1))
        let port = server.port
        server.shutdown()
        server.shutdown()
        server.waitUntilStopped()
        XCTAssertTrue(server.isStopped)
        XCTAssertThrowsError(try RawHTTPClient(port: port), "the port still accepts connections")
    }

    /// With epoll worker threads, `MHD_quiesce_daemon` raced with the workers over the listening socket and
    /// once aborted a CI run ("Failed to remove listen FD from epoll set", libmicrohttpd 0.9.75); the
    /// workers now poll. Many servers with several workers shut down while clients connect, and at once
    /// after starting.
    func testShutdownWhileClientsConnectNeverAborts() throws {
        var router = Router(accessLog: DiscardingAccessLog())
        router.get("/hello") { _ in .text("hello") }
        for _ in 0..<100 {
            let server = try HTTPServer(router: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 4))
            let port = server.port
            let clients = DispatchGroup()
            let answered = DispatchSemaphore(value: 0)
            for _ in 0..<3 {
                // Each client sends requests on new connections until the server refuses them.
                DispatchQueue.global().async(group: clients) {
                    var served = 0
                    while served < 10_000, (try? RawHTTPClient(port: port).request("GET", "/hello").status) == 200 {
                        served += 1
                        if served == 1 { answered.signal() }
                    }
                }
            }
            XCTAssertEqual(answered.wait(timeout: .now() + 10), .success)
            server.shutdown(gracePeriod: 0)
            XCTAssertEqual(clients.wait(timeout: .now() + 10), .success, "clients still served after shutdown")
            XCTAssertTrue(server.isStopped)
        }
        // Shut down at once, while the workers may still be entering their first loop.
        for _ in 0..<500 {
            try HTTPServer(router: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 4))
                .shutdown(gracePeriod: 0)
        }
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
