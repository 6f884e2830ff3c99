import FailscopeModel
@_spi(Engine) import FailscopeStore
import FailscopeTesting
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Two real `failscope serve` processes on one PostgreSQL database (the replicas of "More than one machine"),
/// 16 uploaders spread across them, one replica killed (SIGKILL) mid-run and started again on its port.
final class PostgresReplicasTests: XCTestCase {
    private var database: PostgresScratchDatabase?

    override func setUpWithError() throws {
        guard let server = PostgresTestServer.url else {
            if PostgresTestServer.isRequired { XCTFail(PostgresTestServer.missingInCI) }
            throw XCTSkip(PostgresTestServer.skipped)
        }
        database = try PostgresScratchDatabase(server: server)
    }

    override func tearDown() {
        database?.drop()
    }

    /// Each uploader PUTs its run (4 runs, 4 uploaders each, so several replicas ingest one run at once), then
    /// sends 12 batches of 10 results, each after PUTting the batch's screenshot, retrying a request until it is
    /// answered 2xx as the spool uploader does (a refused connection, a timeout or a 5xx is tried again). One
    /// replica is killed once a third of the batches are acknowledged and started again on the same port while
    /// its uploaders retry. Then every sent result is stored exactly once, each run's counters match its rows,
    /// both replicas answer every read (run list, run details, flaky tests, pages) byte for byte the same, and
    /// both serve every screenshot: from a shared bucket when the S3 test server is there (`make test`), else
    /// from a shared data folder.
    func testTwoReplicasOnOneDatabaseKeepEveryAcknowledgedResultOnceThroughAKill() throws {
        let databaseURL = try XCTUnwrap(database).url
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-replicas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["--database", databaseURL, "--upload-token", uploadToken, "--threads", "4"]
        // With the S3 server of `make test`, each replica has a data folder of its own, as on two machines, and
        // they share a bucket; without it, they share one data folder's artifact files (README, "More than one
        // machine").
        let bucket = ProcessInfo.processInfo.environment["FAILSCOPE_TEST_S3_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if let bucket { arguments += ["--artifacts", bucket + "/replicas-" + UUID().uuidString.lowercased()] }
        let data = folder.appendingPathComponent("first")
        let otherData = bucket == nil ? data : folder.appendingPathComponent("second")
        let first = try ServeProcess(data: data, arguments: arguments)
        let second = try ServeProcess(data: otherData, arguments: arguments)
        let ports = [first.port, second.port]
        var restarted: ServeProcess?
        defer {
            first.stop(signal: SIGKILL)
            second.stop(signal: SIGKILL)
            restarted?.stop(signal: SIGKILL)
        }

        let uploaders = 16
        let batches = 12
        let resultsPerBatch = 10
        let startedAt = Date()
        let acknowledged = AcknowledgedKeys()
        let killNow = DispatchSemaphore(value: 0)
        let failures = AcknowledgedKeys()
        let done = DispatchGroup()
        for uploader in 0..<uploaders {
            done.enter()
            // One thread per uploader: GCD's global pool adds a blocked worker only about once a second.
            Thread {
                defer { done.leave() }
                let client = LiveClient(base: "http://127.0.0.1:\(ports[uploader % 2])", token: uploadToken)
                let runID = "replicas-\(uploader % 4)"
                let run = Run(
                    id: runID, project: "Shop", branch: "main", commit: "c0ffee", device: "iPhone 15",
                    startedAt: startedAt)
                let png = TestPNG.make(width: 4 + uploader, height: 3)
                let screenshot = ArtifactRef(
                    sha256: SHA256.hex(of: png), kind: .screenshot, byteCount: png.count, width: 4 + uploader, height: 3
                )
                guard
                    Self.sendUntilAcknowledged(
                        client, "PUT", "/api/v1/runs/\(runID)", body: try! WireCoding.encoder().encode(run))
                else { return failures.record("uploader \(uploader): PUT run never acknowledged") }
                for batch in 0..<batches {
                    guard
                        Self.sendUntilAcknowledged(
                            client, "PUT", "/api/v1/artifacts/\(screenshot.sha256)", body: Data(png),
                            contentType: "image/png")
                    else { return failures.record("uploader \(uploader): PUT artifact never acknowledged") }
                    let results = (0..<resultsPerBatch).map { index in
                        Self.result(
                            suite: "Suite\(uploader / 4)", name: "test\(batch)_\(index)",
                            failing: (batch + index + uploader % 4) % 4 == 0, screenshot: screenshot, at: startedAt)
                    }
                    let body = try! WireCoding.encoder().encode(ResultBatch(results: results))
                    guard Self.sendUntilAcknowledged(client, "POST", "/api/v1/runs/\(runID)/results", body: body)
                    else { return failures.record("uploader \(uploader): batch \(batch) never acknowledged") }
                    let keys = results.map { runID + "/" + $0.resultKey }
                    if acknowledged.add(keys) == uploaders * batches / 3 { killNow.signal() }
                }
            }.start()
        }

        XCTAssertEqual(killNow.wait(timeout: .now() + 120), .success, "a third of the batches acknowledged")
        first.stop(signal: SIGKILL)
        let acknowledgedAtKill = acknowledged.names.count
        restarted = try ServeProcess(data: data, port: ports[0], arguments: arguments)
        XCTAssertEqual(done.wait(timeout: .now() + 300), .success, "every uploader finished")
        XCTAssertEqual(failures.names, [])

        // Every acknowledged result is stored exactly once, and every result sent was acknowledged in the end.
        let store = try FailscopeStore(directory: data, database: .postgres(url: databaseURL))
        defer { store.close() }
        let rows = try store.read { db in
            try db.query("SELECT run_id, result_key FROM results") { $0.string(0) + "/" + $0.string(1) }
        }
        let sent = uploaders * batches * resultsPerBatch
        XCTAssertLessThan(acknowledgedAtKill, sent * 2 / 3, "killed mid-run")
        XCTAssertEqual(acknowledged.names.count, sent)
        XCTAssertEqual(rows.count, sent, "one row per result")
        XCTAssertEqual(Set(rows), acknowledged.names)
        for run in 0..<4 {
            let summary = try XCTUnwrap(try store.runSummary("replicas-\(run)"))
            XCTAssertEqual(summary.counts.total, sent / 4, "run \(run)'s counter matches its rows")
        }

        // Both replicas answer every read the same.
        let replicas = [ports[0], ports[1]].map { LiveClient(base: "http://127.0.0.1:\($0)", token: nil) }
        var reads = ["/api/v1/runs?project=Shop", "/api/v1/pages?project=Shop&branch=main"]
        reads += (0..<4).map { "/api/v1/runs/replicas-\($0)" }
        reads += ["/api/v1/flaky?project=Shop", "/api/v1/flaky?project=Shop&branch=main&page=CatalogPage"]
        for read in reads {
            let answers = replicas.map { $0.send("GET", read) }
            XCTAssertEqual(answers[0]?.status, 200, read)
            XCTAssertEqual(answers[1]?.status, 200, read)
            XCTAssertEqual(answers[0]?.body, answers[1]?.body, "both replicas answer \(read) the same")
        }
        // Every screenshot an uploader stored is served, the same bytes, by both replicas.
        for uploader in 0..<uploaders {
            let png = TestPNG.make(width: 4 + uploader, height: 3)
            for replica in replicas {
                let answer = replica.send("GET", "/artifacts/\(SHA256.hex(of: png)).png")
                XCTAssertEqual(answer?.status, 200, "uploader \(uploader)'s screenshot")
                XCTAssertEqual(answer?.body, Data(png), "uploader \(uploader)'s screenshot bytes")
            }
        }
        let flaky = try XCTUnwrap(replicas[1].send("GET", "/api/v1/flaky?project=Shop&branch=main&page=CatalogPage"))
        XCTAssertTrue(
            String(decoding: flaky.body, as: UTF8.self).contains("test0_0"),
            "a test failing in one run and passing in another on one commit is flaky")
    }

    /// Sends one request until it is answered 2xx: a refused connection, a timeout or a 5xx (503 while the
    /// database is busy) is retried after a short pause, up to 60 s; a 4xx is a failure.
    private static func sendUntilAcknowledged(
        _ client: LiveClient, _ method: String, _ path: String, body: Data, contentType: String = "application/json"
    ) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let reply = client.send(method, path, body: body, contentType: contentType, timeout: 10) {
                if (200..<300).contains(reply.status) { return true }
                if reply.status < 500 { return false }
            }
            usleep(100_000)
        }
        return false
    }

    /// A result of `suite`/`name` that failed on CatalogPage or passed, with the uploader's screenshot.
    private static func result(suite: String, name: String, failing: Bool, screenshot: ArtifactRef, at date: Date)
        -> TestResult
    {
        let callSite = SourceLocation(file: "/src/\(suite).swift", line: 12)
        return TestResult(
            suite: suite, name: name, status: failing ? .failed : .passed, startedAt: date, duration: 0.5,
            failures: failing
                ? [
                    Failure(
                        message: "Expected the cart badge", location: callSite, page: "CatalogPage",
                        action: "addToCart()", callSite: callSite)
                ] : [],
            trail: [TrailStep(page: "CatalogPage", action: "addToCart()", callSite: callSite)],
            artifacts: failing ? [screenshot] : [])
    }
}

extension AcknowledgedKeys {
    /// Records one failure message.
    func record(_ message: String) { _ = add([message]) }
}
