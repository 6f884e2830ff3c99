import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A data folder on a small tmpfs that fills up, under the built `failscope serve`: writes get a 507 JSON answer,
/// reads keep working, `/healthz` and `/metrics` say so, nothing acknowledged is lost, freeing space is enough to
/// recover, and a start on a full disk says the disk is full. Needs root to mount the tmpfs (skipped otherwise).
final class DiskFullTests: XCTestCase {
    private var mountPoint: URL?

    override func tearDown() {
        if let mountPoint {
            _ = mountPoint.path.withCString { umount2($0, Int32(MNT_DETACH)) }
            try? FileManager.default.removeItem(at: mountPoint)
        }
    }

    /// Mounts an 8 MiB tmpfs, or skips the test saying why.
    private func smallDisk() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mounted = mount("tmpfs", folder.path, "tmpfs", 0, "size=8m")
        guard mounted == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: folder)
            throw XCTSkip("cannot mount a tmpfs to fill up (\(reason); needs root): the disk-full test did not run")
        }
        mountPoint = folder
        return folder
    }

    /// Writes a file until the file system is full; returns it.
    @discardableResult
    private func fill(_ disk: URL) -> URL {
        let filler = disk.appendingPathComponent("filler-\(UUID().uuidString)")
        let descriptor = open(filler.path, O_WRONLY | O_CREAT, 0o600)
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x55, count: 64 * 1024)
        for _ in 0..<1024 where chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        return filler
    }

    private func batch(_ count: Int, prefix: String) throws -> Data {
        let results = (0..<count).map { index in
            TestResult(
                suite: "DiskTests", name: "\(prefix)\(index)", status: .failed, startedAt: referenceDate,
                failures: [Failure(message: String(repeating: "x", count: 2_000))])
        }
        return try WireCoding.encoder().encode(ResultBatch(results: results))
    }

    func testAFullDiskRefusesWritesWith507AndKeepsReadsAndAcknowledgedData() throws {
        let disk = try smallDisk()
        let data = disk.appendingPathComponent("data")
        let server = try ServeProcess(data: data, token: uploadToken)
        defer { server.stop(signal: SIGKILL) }
        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
        XCTAssertEqual(
            client.send("PUT", "/api/v1/runs/run-1", body: try WireCoding.encoder().encode(sampleRun()))?.status, 201)
        XCTAssertEqual(
            client.send("POST", "/api/v1/runs/run-1/results", body: try batch(10, prefix: "before"))?.status, 200)

        let filler = fill(disk)
        let png = TestPNG.make(width: 40, height: 40)
        let artifact = try XCTUnwrap(
            client.send("PUT", "/api/v1/artifacts/\(SHA256.hex(of: png))", body: Data(png), contentType: "image/png"))
        XCTAssertEqual(artifact.status, 507, String(decoding: artifact.body, as: UTF8.self))
        XCTAssertTrue(String(decoding: artifact.body, as: UTF8.self).contains(#""code":"insufficient_storage""#))
        let results = try XCTUnwrap(
            client.send("POST", "/api/v1/runs/run-1/results", body: try batch(1_000, prefix: "during")))
        XCTAssertEqual(results.status, 507, String(decoding: results.body, as: UTF8.self))

        // Reads work, and health and metrics say the disk is full.
        XCTAssertEqual(client.send("GET", "/api/v1/runs")?.status, 200)
        let detail = try XCTUnwrap(client.send("GET", "/api/v1/runs/run-1"))
        XCTAssertEqual(try WireCoding.decoder().decode(RunDetail.self, from: detail.body).summary.counts.total, 10)
        let health = try XCTUnwrap(client.send("GET", "/healthz"))
        XCTAssertEqual(health.status, 200)
        XCTAssertTrue(String(decoding: health.body, as: UTF8.self).contains(#""storage":"full""#))
        let metrics = String(decoding: try XCTUnwrap(client.send("GET", "/metrics")).body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("\nfailscope_storage_full 1\n"), metrics)

        // Space freed: writes work again, with nothing acknowledged lost and nothing refused half-stored.
        try FileManager.default.removeItem(at: filler)
        XCTAssertEqual(
            client.send("PUT", "/api/v1/artifacts/\(SHA256.hex(of: png))", body: Data(png), contentType: "image/png")?
                .status, 201)
        XCTAssertEqual(
            client.send("POST", "/api/v1/runs/run-1/results", body: try batch(10, prefix: "after"))?.status, 200)
        let recovered = try XCTUnwrap(client.send("GET", "/api/v1/runs/run-1"))
        XCTAssertEqual(try WireCoding.decoder().decode(RunDetail.self, from: recovered.body).summary.counts.total, 20)
        XCTAssertEqual(
            String(decoding: try XCTUnwrap(client.send("GET", "/healthz")).body, as: UTF8.self), #"{"status":"ok"}"#)
        XCTAssertTrue(
            String(decoding: try XCTUnwrap(client.send("GET", "/metrics")).body, as: UTF8.self)
                .contains("\nfailscope_storage_full 0\n"))
        server.stop(signal: SIGTERM)

        // A start on a full disk says so, and exits (the database cannot even be opened).
        fill(disk)
        let start = Process()
        start.executableURL = BuildProducts.failscope
        start.arguments = ["serve", "--port", "0", "--data", data.path, "--upload-token", uploadToken]
        let errors = Pipe()
        start.standardError = errors
        start.standardOutput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        start.terminationHandler = { _ in exited.signal() }
        try start.run()
        if exited.wait(timeout: .now() + 15) == .timedOut {
            start.terminate()
            XCTFail("serve on a full disk did not exit within 15 s")
            return
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertNotEqual(start.terminationStatus, 0)
        XCTAssertTrue(message.contains("The disk holding the data folder is full"), message)
    }
}
