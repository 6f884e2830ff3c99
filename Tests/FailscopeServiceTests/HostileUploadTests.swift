import FailscopeModel
import FailscopeTesting
import Foundation
import Synchronization
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Uploads meant to exhaust the service's memory, against the built `failscope serve` child process, with its
/// peak resident memory (`VmHWM`) read before and after.
final class HostileUploadTests: XCTestCase {
    private func temporaryData() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("failscope-hostile-\(UUID().uuidString)")
    }

    /// The peak resident set of `process`, in MiB.
    private func peakMemory(_ process: ServeProcess) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(process.process.processIdentifier)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try XCTUnwrap(Double(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes / 1024
    }

    /// Twelve 31 MB uploads without a token: each is answered 401 from its head alone, the connection is closed,
    /// and the server's peak memory does not grow by the bodies (it grew by 440 MB when they were read first).
    func testUnauthenticatedBodiesAreRefusedBeforeTheyAreRead() throws {
        let data = temporaryData()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try ServeProcess(data: data, token: uploadToken)
        defer { server.stop(signal: SIGKILL) }
        let before = try peakMemory(server)
        let body = Data(repeating: 0x7B, count: 31_000_000)
        let answers = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            guard let socket = try? RawHTTPClient(port: server.port) else { return }
            try? socket.send(
                Data(
                    ("POST /api/v1/runs/r\(index)/results HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8))
            // The answer comes from the head alone; then the body is pushed anyway, as an attacker would.
            let head = socket.readHead(timeout: 3)
            try? socket.send(body)  // the server may already have closed the connection
            answers.withLock { $0.append(head.hasPrefix("HTTP/1.1 401") && head.contains("close") ? 401 : -1) }
        }
        let after = try peakMemory(server)
        print("12 unauthenticated 31 MB uploads: peak RSS \(before) MiB → \(after) MiB")
        XCTAssertEqual(answers.withLock { $0 }, Array(repeating: 401, count: 12))
        XCTAssertLessThan(after - before, 64, "peak memory grew from \(before) to \(after) MiB")
        let metrics = String(
            decoding: LiveClient(base: "http://127.0.0.1:\(server.port)", token: nil).send("GET", "/metrics")?.body
                ?? Data(), as: UTF8.self)
        XCTAssertTrue(metrics.contains("\nfailscope_http_open_connections "), metrics)
        XCTAssertTrue(metrics.contains("\nfailscope_http_slow_connections_closed_total 0\n"), metrics)
        // An ordinary client (URLSession) with a wrong token and a small body still reads its 401, though the
        // server closes the connection without reading the body (so a reporter says "invalid token" instead of
        // retrying). With a body of megabytes the close may reach it as a reset first (README, "Bodies").
        let wrongToken = LiveClient(base: "http://127.0.0.1:\(server.port)", token: "wrong")
        let reply = wrongToken.send("POST", "/api/v1/runs/r/results", body: Data(repeating: 0x20, count: 10_000))
        XCTAssertEqual(reply?.status, 401, "a 10000-byte body with a wrong token")
    }

    /// Eight concurrent PNGs within the dimension limits that decode to 100 MB each (25 Mpx): verified and
    /// stored, with the server's peak memory growing by far less than one decoded image.
    func testHugePNGUploadsAreVerifiedInBoundedMemory() throws {
        let data = temporaryData()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try ServeProcess(data: data, token: uploadToken)
        defer { server.stop(signal: SIGKILL) }
        let images = (0..<8).map { TestPNG.grayscale1Bit(width: 5_000, height: 5_000, mark: UInt8($0 + 1)) }
        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
        let before = try peakMemory(server)
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: images.count) { index in
            let png = images[index]
            let reply = client.send(
                "PUT", "/api/v1/artifacts/\(SHA256.hex(of: png))", body: Data(png), contentType: "image/png",
                timeout: 60)
            statuses.withLock { $0.append(reply?.status ?? -1) }
        }
        let after = try peakMemory(server)
        print("8 concurrent 25 Mpx PNG uploads (\(images[0].count) bytes each): peak RSS \(before) MiB → \(after) MiB")
        XCTAssertEqual(statuses.withLock { $0 }, Array(repeating: 201, count: 8))
        XCTAssertLessThan(after - before, 100, "peak memory grew from \(before) to \(after) MiB")
    }
}
