import FailscopeModel
import FailscopeTesting
import FailscopeService
@_spi(Engine) import FailscopeStore
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// Through real HTTP: the built `failscope serve` child process on a free loopback port.
final class LiveServiceTests: XCTestCase {
    private func temporaryData() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("failscope-live-\(UUID().uuidString)")
    }

    func testServeAnswersOverHTTPAndStopsGracefullyOnSIGTERM() throws {
        let data = temporaryData()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try ServeProcess(data: data, token: uploadToken)
        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
        XCTAssertEqual(client.send("GET", "/healthz")?.status, 200)
        let run = try WireCoding.encoder().encode(sampleRun())
        XCTAssertEqual(client.send("PUT", "/api/v1/runs/run-1", body: run)?.status, 201)
        let batch = try WireCoding.encoder().encode(ResultBatch(results: [failingResult()]))
        XCTAssertEqual(client.send("POST", "/api/v1/runs/run-1/results", body: batch)?.status, 200)
        let png = TestPNG.make(width: 5, height: 5)
        let sha = SHA256.hex(of: png)
        XCTAssertEqual(
            client.send("PUT", "/api/v1/artifacts/\(sha)", body: Data(png), contentType: "image/png")?.status, 201)
        let file = try XCTUnwrap(LiveClient(base: client.base, token: nil).send("GET", "/artifacts/\(sha).png"))
        XCTAssertEqual(file.status, 200)
        XCTAssertEqual([UInt8](file.body), png)
        XCTAssertEqual(file.headers["content-security-policy"], "sandbox")
        XCTAssertEqual(file.headers["etag"], "\"\(sha)\"")
        let detail = try XCTUnwrap(client.send("GET", "/api/v1/runs/run-1"))
        XCTAssertEqual(try WireCoding.decoder().decode(RunDetail.self, from: detail.body).summary.counts.failed, 1)
        let unauthorized = LiveClient(base: client.base, token: "nope").send("PUT", "/api/v1/runs/run-1", body: run)
        XCTAssertEqual(unauthorized?.status, 401)
        XCTAssertEqual(server.stop(signal: SIGTERM), 0)
        XCTAssertTrue(server.output.contains("stopped"), server.output)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: data.appendingPathComponent("failscope.sqlite-wal").path)
                && ((try? FileManager.default.attributesOfItem(
                    atPath: data.appendingPathComponent("failscope.sqlite-wal").path)[.size] as? Int) ?? 0) > 0,
            "the WAL was checkpointed at shutdown")
    }

    /// SIGKILL during concurrent uploads from 8 clients: after a restart the database is intact and every
    /// batch the server acknowledged (2xx) is there.
    func testEveryAcknowledgedResultSurvivesSIGKILL() throws {
        let data = temporaryData()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try ServeProcess(data: data, token: uploadToken)
        let base = "http://127.0.0.1:\(server.port)"
        let client = LiveClient(base: base, token: uploadToken)
        XCTAssertEqual(
            client.send("PUT", "/api/v1/runs/crash", body: try WireCoding.encoder().encode(sampleRun(id: "crash")))?
                .status, 201)

        let acknowledged = AcknowledgedKeys()
        let enoughAcknowledged = DispatchSemaphore(value: 0)
        let clients = DispatchGroup()
        // One thread per client: GCD's global pool adds a blocked worker only about once a second.
        for clientIndex in 0..<8 {
            clients.enter()
            Thread {
                defer { clients.leave() }
                let client = LiveClient(base: base, token: uploadToken)
                for batchIndex in 0..<400 {
                    let results = (0..<25).map { index in
                        var result = failingResult(name: "c\(clientIndex)-b\(batchIndex)-r\(index)")
                        result.systemOut = String(repeating: "log line\n", count: 20)
                        return result
                    }
                    guard let body = try? WireCoding.encoder().encode(ResultBatch(results: results)),
                        let reply = client.send("POST", "/api/v1/runs/crash/results", body: body, timeout: 5)
                    else { return }  // the server is gone
                    guard (200..<300).contains(reply.status) else { continue }
                    if acknowledged.add(results.map(\.name)) == 40 { enoughAcknowledged.signal() }
                }
            }.start()
        }
        XCTAssertEqual(enoughAcknowledged.wait(timeout: .now() + 60), .success, "40 batches acknowledged")
        server.stop(signal: SIGKILL)
        XCTAssertEqual(clients.wait(timeout: .now() + 60), .success, "clients ended after the kill")
        let names = acknowledged.names
        XCTAssertGreaterThanOrEqual(names.count, 40 * 25)

        let restarted = try ServeProcess(data: data, token: uploadToken)
        let detail = try XCTUnwrap(
            LiveClient(base: "http://127.0.0.1:\(restarted.port)", token: nil).send("GET", "/api/v1/runs/crash"))
        let summary = try WireCoding.decoder().decode(RunDetail.self, from: detail.body).summary
        XCTAssertGreaterThanOrEqual(summary.counts.total, names.count)
        XCTAssertEqual(restarted.stop(signal: SIGTERM), 0)

        let store = try FailscopeStore(directory: data)
        defer { store.close() }
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        let stored = Set(
            try store.pool.read { db in
                try db.query("SELECT t.name FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = 'crash'") {
                    $0.string(0)
                }
            })
        let missing = names.subtracting(stored)
        XCTAssertTrue(missing.isEmpty, "\(missing.count) acknowledged results lost, e.g. \(missing.prefix(3))")
        let counted = try store.runSummary("crash")?.counts.total
        XCTAssertEqual(counted, stored.count, "run counts match the stored rows")
    }
}

/// Result names the server acknowledged, from many client threads.
final class AcknowledgedKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var set = Set<String>()
    private var batches = 0

    /// Adds one acknowledged batch; returns the number of batches so far.
    func add(_ names: [String]) -> Int {
        lock.withLock {
            set.formUnion(names)
            batches += 1
            return batches
        }
    }

    var names: Set<String> { lock.withLock { set } }
}

final class RetentionSweepTests: XCTestCase {
    func testPeriodicSweepDeletesOldRunsWhileServing() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let seed = try FailscopeStore(directory: data)
        var old = sampleRun(id: "old")
        old.startedAt = Date().addingTimeInterval(-10 * 86_400)
        try seed.putRun(old)
        try seed.putRun(Run(id: "new", project: "Shop", startedAt: Date()))
        seed.close()

        let server = try FailscopeServer(
            dataDirectory: data, port: 0, threadCount: 2,
            configuration: ServiceConfiguration(uploadTokens: [uploadToken], accessLog: DiscardingAccessLog()))
        let reported = DispatchSemaphore(value: 0)
        let messages = AcknowledgedKeys()
        let sweep = server.startRetentionSweep(keepDays: 7) { message in
            _ = messages.add([message])
            reported.signal()
        }
        XCTAssertEqual(reported.wait(timeout: .now() + 20), .success)
        sweep.cancel()
        XCTAssertEqual(messages.names.first, "retention: deleted 1 runs, 0 artifacts (0 bytes) older than 7 days")
        let list = LiveClient(base: "http://127.0.0.1:\(server.port)", token: nil).send("GET", "/api/v1/runs")
        let runs = try WireCoding.decoder().decode(RunList.self, from: try XCTUnwrap(list).body)
        XCTAssertEqual(runs.runs.map(\.run.id), ["new"])
        server.stop()
    }
}
