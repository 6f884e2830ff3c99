import Dispatch
import FailscopeTesting
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// Shutdown races. With epoll worker threads, libmicrohttpd 0.9.75 aborted the process ("Failed to remove listen
/// FD from epoll set") when `MHD_quiesce_daemon` and a waking worker both removed the listening socket from the
/// worker's epoll set, or when the socket was closed before the daemon stopped; the workers now poll and the
/// socket is closed after `MHD_stop_daemon`.
final class ShutdownStressTests: XCTestCase {
    func testWorkersWakingDuringTheGracePeriodDoNotAbort() throws {
        for round in 0..<10 {
            let gate = DispatchSemaphore(value: 0)
            let arrived = DispatchSemaphore(value: 0)
            var router = Router(accessLog: DiscardingAccessLog())
            router.get("/hello") { _ in .text("hello") }
            router.get("/slow") { _ in
                arrived.signal()
                _ = gate.wait(timeout: .now() + 5)
                return .text("finished")
            }
            let server = try HTTPServer(
                responder: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 4))
            var idle = try (0..<8).map { _ in try RawHTTPClient(port: server.port) }
            for client in idle { XCTAssertEqual(try client.request("GET", "/hello").text, "hello") }
            let slowReply = DispatchSemaphore(value: 0)
            let port = server.port
            Thread.detachNewThread {
                _ = try? RawHTTPClient(port: port).request("GET", "/slow")
                slowReply.signal()
            }
            XCTAssertEqual(arrived.wait(timeout: .now() + 5), .success, "round \(round)")
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                server.shutdown(gracePeriod: 5)
                stopped.signal()
            }
            XCTAssertTrue(waitUntil { (try? RawHTTPClient(port: port)) == nil }, "round \(round): still accepting")
            idle.removeAll()  // closing the idle keep-alive connections wakes every worker during the grace period
            gate.signal()
            XCTAssertEqual(slowReply.wait(timeout: .now() + 5), .success, "round \(round)")
            XCTAssertEqual(stopped.wait(timeout: .now() + 5), .success, "round \(round)")
            XCTAssertTrue(server.isStopped)
        }
    }

    /// Many servers with several workers shut down while clients connect, and at once after starting.
    func testShutdownWhileClientsConnectNeverAborts() throws {
        var router = Router(accessLog: DiscardingAccessLog())
        router.get("/hello") { _ in .text("hello") }
        for _ in 0..<100 {
            let server = try HTTPServer(
                responder: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 4))
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
            try HTTPServer(responder: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 4))
                .shutdown(gracePeriod: 0)
        }
    }
}
