import Dispatch
import Foundation
import HTTPServer
import XCTest

/// Shutdown races: libmicrohttpd aborts the process ("Failed to remove listen FD from epoll set") if a worker
/// thread wakes during the grace period and cannot remove the quiesced listening socket from its epoll set, which
/// happened when the socket was closed right after quiescing instead of after the daemon stopped.
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
                router: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 4))
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

    func waitUntil(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now() + seconds
        let tick = DispatchSemaphore(value: 0)
        while DispatchTime.now() < deadline {
            if condition() { return true }
            _ = tick.wait(timeout: .now() + .milliseconds(5))
        }
        return condition()
    }
}
