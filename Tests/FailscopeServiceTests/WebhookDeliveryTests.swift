import FailscopeModel
import FailscopeService
import FailscopeStore
import FailscopeTesting
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// Webhooks end to end: a service on a loopback port (`FailscopeServer`, its worker running) sends events to a real
/// receiver (`WebhookReceiver`) that fails, hangs or answers as each test scripts.
final class WebhookDeliveryTests: XCTestCase {
    private let secret = "receiver-secret-0123456789"
    private var directories: [URL] = []

    override func tearDown() {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    private func temporaryData() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-webhooks-\(UUID().uuidString)")
        directories.append(url)
        return url
    }

    /// Fast timing for tests: no settling, retries after 50-200 ms.
    private func settings(urls: [String] = [], timeout: Double = 5, maximumAttempts: Int = 8) -> WebhookSettings {
        WebhookSettings(
            urls: urls, secret: urls.isEmpty ? nil : secret, settleSeconds: 0, timeoutSeconds: timeout,
            maximumAttempts: maximumAttempts, initialDelaySeconds: 0.05, maximumDelaySeconds: 0.2, pollSeconds: 0.05)
    }

    private func startServer(_ data: URL, _ settings: WebhookSettings) throws -> FailscopeServer {
        try FailscopeServer(
            dataDirectory: data, port: 0, threadCount: 4,
            configuration: ServiceConfiguration(
                uploadTokens: [uploadToken], accessLog: DiscardingAccessLog(), webhooks: settings, webhookLog: { _ in })
        )
    }

    /// Uploads run `id` on `commit` with one result per test, `minute` minutes after an hour ago, and finishes it;
    /// returns the three HTTP statuses.
    @discardableResult
    private func upload(
        _ client: LiveClient, _ id: String, commit: String, minute: Int, _ outcomes: [(name: String, passed: Bool)],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [Int] {
        let startedAt = Date().addingTimeInterval(Double(minute - 60) * 60)
        let run = Run(
            id: id, project: "Shop", branch: "main", commit: commit, device: "iPhone 15", startedAt: startedAt)
        let results = outcomes.map {
            TestResult(
                suite: "CheckoutTests", name: $0.name, status: $0.passed ? .passed : .failed, startedAt: startedAt)
        }
        let statuses = [
            client.send("PUT", "/api/v1/runs/\(id)", body: try WireCoding.encoder().encode(run))?.status ?? 0,
            client.send(
                "POST", "/api/v1/runs/\(id)/results",
                body: try WireCoding.encoder().encode(ResultBatch(results: results))
            )?.status ?? 0,
            client.send(
                "POST", "/api/v1/runs/\(id)/finish",
                body: try WireCoding.encoder().encode(RunFinish(finishedAt: startedAt.addingTimeInterval(20)))
            )?.status ?? 0,
        ]
        XCTAssertEqual(statuses, [201, 200, 200], "run \(id) was stored", file: file, line: line)
        return statuses
    }

    private func deliveries(_ client: LiveClient, _ webhookID: String) throws -> [WebhookDelivery] {
        let reply = try XCTUnwrap(client.send("GET", "/api/v1/webhooks/\(webhookID)/deliveries"))
        return try WireCoding.decoder().decode(WebhookDeliveryList.self, from: reply.body).deliveries
    }

    /// HMAC-SHA256 composed by hand from RFC 2104 over SHA-256 (block 64 bytes), independently of libcrypto's HMAC.
    private func independentSignature(key: [UInt8], message: Data) -> String {
        func digest(_ bytes: [UInt8]) -> [UInt8] {
            let hex = Array(SHA256.hex(of: bytes).utf8)
            return stride(from: 0, to: hex.count, by: 2).map {
                UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
            }
        }
        var block = key.count > 64 ? digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + [UInt8](message))
        let outer = digest(block.map { $0 ^ 0x5c } + inner)
        return "sha256=" + outer.map { String(format: "%02x", $0) }.joined()
    }

    /// Runs README.md's Python `verify` (the recipe receivers copy) on `body`; its printed answer.
    private func readmeVerify(secret: String, body: Data, signature: String) throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "## Webhooks"), "README.md has a Webhooks section")
        let start = try XCTUnwrap(text.range(of: "```python\n", range: section.upperBound..<text.endIndex))
        let end = try XCTUnwrap(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webhook-body-\(UUID().uuidString)")
        try body.write(to: bodyFile)
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            String(text[start.upperBound..<end.lowerBound])
                + "\nimport sys\nprint(verify(sys.argv[1].encode(), open(sys.argv[2], 'rb').read(), sys.argv[3]))",
            secret, bodyFile.path, signature,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A receiver that answers 500 twice gets the same signed body three times; the log says delivered after 3
    /// attempts with 200; the metrics count it; the secret is in no answer.
    func testADeliveryIsSignedRetriedAndLoggedAndItsSecretShownNowhere() throws {
        let receiver = try WebhookReceiver { event, index in
            event == "run.finished" && index < 2 ? .status(500) : .status(200)
        }
        defer { receiver.stop() }
        let server = try startServer(temporaryData(), settings())
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let client = LiveClient(base: base, token: uploadToken)
        let created = try XCTUnwrap(
            client.send(
                "POST", "/api/v1/webhooks",
                body: try WireCoding.encoder().encode(WebhookCreate(url: receiver.url, secret: secret))))
        XCTAssertEqual(created.status, 201)
        let webhook = try WireCoding.decoder().decode(Webhook.self, from: created.body)
        XCTAssertEqual(webhook.url, receiver.url)

        try upload(client, "signed", commit: "c1", minute: 1, [("testPay", true)])
        waitFor("three attempts, the third answered") {
            receiver.requests.count == 3 && receiver.requests[2].status == 200
        }
        let requests = receiver.requests
        XCTAssertEqual(requests.map(\.status), [500, 500, 200])
        XCTAssertEqual(Set(requests.map(\.body)).count, 1, "every retry sends the same bytes")
        XCTAssertEqual(Set(requests.compactMap { $0.headers["X-Failscope-Event-Id"] }).count, 1)
        let body = requests[0].body
        let signature = try XCTUnwrap(requests[0].headers["X-Failscope-Signature"])
        XCTAssertEqual(signature, independentSignature(key: Array(secret.utf8), message: body))
        XCTAssertEqual(try readmeVerify(secret: secret, body: body, signature: signature), "True")
        XCTAssertEqual(try readmeVerify(secret: secret + "x", body: body, signature: signature), "False")
        var tampered = body
        tampered[tampered.startIndex] = UInt8(ascii: " ")
        XCTAssertEqual(try readmeVerify(secret: secret, body: tampered, signature: signature), "False")

        let event = try XCTUnwrap(requests[0].event)
        XCTAssertEqual(event.type, .runFinished)
        XCTAssertEqual(requests[0].headers["X-Failscope-Event"], "run.finished")
        XCTAssertEqual(requests[0].headers["X-Failscope-Event-Id"], event.id)
        XCTAssertEqual(
            requests[0].headers["X-Failscope-Timestamp"], String(Int64(event.createdAt.timeIntervalSince1970)))
        XCTAssertEqual(requests[0].headers["Content-Type"], "application/json")
        XCTAssertEqual(event.run.id, "signed")
        XCTAssertEqual(event.run.url, "\(base)/#/runs/signed")
        XCTAssertEqual(event.run.counts.passed, 1)
        XCTAssertNil(event.test, "a test first seen stable makes no event")
        XCTAssertEqual(
            event.text,
            "*Shop* <\(base)/#/runs/signed|run signed> on `main` passed: 1 results (1 passed, 0 failed, 0 errors, 0 skipped)"
        )
        let document = try JSONValue.parse(try XCTUnwrap(client.send("GET", "/api/v1/openapi.json")).body)
        var checker = JSONSchemaChecker(document: document)
        XCTAssertEqual(
            checker.problems(
                of: try JSONValue.parse(body), against: .object(["$ref": .string("#/components/schemas/WebhookEvent")])),
            [])

        waitFor("the delivery logged as delivered") {
            (try? self.deliveries(client, webhook.id))?.first?.status == .delivered
        }
        let logged = try XCTUnwrap(try deliveries(client, webhook.id).first)
        XCTAssertEqual(logged.attempts, 3)
        XCTAssertEqual(logged.lastStatusCode, 200)
        XCTAssertEqual(logged.eventId, event.id)
        XCTAssertNil(logged.lastError)
        waitFor("the metrics") {
            client.send("GET", "/metrics").map { String(decoding: $0.body, as: UTF8.self) }?
                .contains("failscope_webhook_deliveries_total{outcome=\"delivered\"} 1\n") == true
        }
        let metrics = String(decoding: try XCTUnwrap(client.send("GET", "/metrics")).body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("failscope_webhook_attempts_failed_total 2\n"), metrics)
        XCTAssertTrue(metrics.contains("failscope_webhook_deliveries_total{outcome=\"failed\"} 0\n"), metrics)
        for answer in [
            created.body, try XCTUnwrap(client.send("GET", "/api/v1/webhooks")).body,
            try XCTUnwrap(client.send("GET", "/api/v1/webhooks/\(webhook.id)/deliveries")).body, Data(metrics.utf8),
        ] {
            XCTAssertFalse(String(decoding: answer, as: UTF8.self).contains(secret))
        }
    }

    /// A test that turns flaky (a pass and a fail on one commit) then broken (two fails on the next) is announced in
    /// that order: while its `test.flaky` is being retried, its `test.broken` waits.
    func testATestsEventsArriveInOrderWhileTheOlderOneIsRetried() throws {
        let receiver = try WebhookReceiver { event, index in
            event == "test.flaky" && index < 3 ? .status(500) : .status(200)
        }
        defer { receiver.stop() }
        let server = try startServer(temporaryData(), settings(urls: [receiver.url]))
        defer { server.stop() }
        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
        try upload(client, "a", commit: "c1", minute: 1, [("testPay", true), ("testBrowse", true)])
        try upload(client, "b", commit: "c1", minute: 2, [("testPay", false), ("testBrowse", true)])
        waitFor("the first test.flaky attempt") { receiver.requests.contains { $0.event?.type == .testFlaky } }
        try upload(client, "c", commit: "c2", minute: 3, [("testPay", false), ("testBrowse", true)])
        try upload(client, "d", commit: "c2", minute: 4, [("testPay", false), ("testBrowse", true)])
        waitFor("test.broken delivered") {
            receiver.requests.contains { $0.event?.type == .testBroken && $0.status == 200 }
                && receiver.requests.filter { $0.event?.type == .runFinished && $0.status == 200 }.count == 4
        }
        let testEvents = receiver.requests.compactMap { request in
            request.event.flatMap { $0.test == nil ? nil : ($0.type, request.status ?? 0) }
        }
        XCTAssertEqual(testEvents.map(\.0), [.testFlaky, .testFlaky, .testFlaky, .testFlaky, .testBroken])
        XCTAssertEqual(testEvents.map(\.1), [500, 500, 500, 200, 200])
        let flaky = try XCTUnwrap(receiver.requests.first { $0.event?.type == .testFlaky }?.event?.test)
        XCTAssertEqual(flaky.name, "testPay")
        XCTAssertEqual(flaky.reasons, [.contradiction])
        XCTAssertEqual(flaky.previousState, .stable)
        let broken = try XCTUnwrap(receiver.requests.first { $0.event?.type == .testBroken }?.event)
        XCTAssertEqual(broken.test?.previousState, .flaky)
        XCTAssertEqual(broken.run.id, "d")
        XCTAssertTrue(broken.text.contains("CheckoutTests.testPay> is broken on `main`"), broken.text)
        let firstBroken = try XCTUnwrap(receiver.requests.firstIndex { $0.event?.type == .testBroken })
        let lastFlaky = try XCTUnwrap(receiver.requests.lastIndex { $0.event?.type == .testFlaky })
        XCTAssertLessThan(lastFlaky, firstBroken, "test.broken was first sent after test.flaky was delivered")
    }

    /// A receiver that holds its request does not hold ingest: a whole run is stored and finished (and its own
    /// event sent) while the first delivery still waits for an answer.
    func testAHangingReceiverDoesNotDelayIngest() throws {
        let receiver = try WebhookReceiver { _, _ in .hold }
        defer { receiver.stop() }
        let server = try startServer(temporaryData(), settings(urls: [receiver.url], timeout: 60))
        defer { server.stop() }
        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
        try upload(client, "first", commit: "c1", minute: 1, [("testPay", true)])
        waitFor("the receiver holding the first delivery") { receiver.requests.count == 1 }

        let start = Date()
        try upload(client, "second", commit: "c2", minute: 2, (0..<200).map { ("test\($0)", true) })
        let seconds = Date().timeIntervalSince(start)
        print("ingest of a 200-result run while the receiver hangs: \(String(format: "%.3f", seconds)) s")
        XCTAssertEqual(receiver.requests.first?.status, nil, "the first delivery is still unanswered")
        waitFor("the second run's event sent beside the stuck one") { receiver.requests.count == 2 }
        XCTAssertEqual(receiver.requests.compactMap { $0.event?.run.id }, ["first", "second"])
        let webhookID = try XCTUnwrap(
            try WireCoding.decoder().decode(
                WebhookList.self, from: XCTUnwrap(client.send("GET", "/api/v1/webhooks")).body
            )
            .webhooks.first?.id)
        XCTAssertEqual(try deliveries(client, webhookID).map(\.status), [.pending, .pending])
        receiver.releaseHeld()
        waitFor("both delivered once released") {
            (try? self.deliveries(client, webhookID))?.map(\.status) == [.delivered, .delivered]
        }
        XCTAssertEqual(try deliveries(client, webhookID).map(\.attempts), [1, 1])
    }

    /// An attempt that gets no answer within the timeout fails ("timed out", no status), is retried, and after the
    /// last attempt the delivery is given up as `failed`.
    func testAnUnansweredDeliveryTimesOutAndIsGivenUpAfterTheLastAttempt() throws {
        let receiver = try WebhookReceiver { _, _ in .hold }
        defer { receiver.stop() }
        let server = try startServer(temporaryData(), settings(urls: [receiver.url], timeout: 1, maximumAttempts: 2))
        defer { server.stop() }
        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
        try upload(client, "silent", commit: "c1", minute: 1, [("testPay", true)])
        let webhookID = try XCTUnwrap(
            try WireCoding.decoder().decode(
                WebhookList.self, from: XCTUnwrap(client.send("GET", "/api/v1/webhooks")).body
            )
            .webhooks.first?.id)
        waitFor("the delivery given up") { (try? self.deliveries(client, webhookID))?.first?.status == .failed }
        let delivery = try XCTUnwrap(try deliveries(client, webhookID).first)
        XCTAssertEqual(delivery.attempts, 2)
        XCTAssertEqual(delivery.lastError, "timed out")
        XCTAssertNil(delivery.lastStatusCode)
        XCTAssertNil(delivery.nextAttemptAt)
        XCTAssertNotNil(delivery.finishedAt)
        XCTAssertEqual(receiver.requests.count, 2)
        let metrics = String(decoding: try XCTUnwrap(client.send("GET", "/metrics")).body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("failscope_webhook_deliveries_total{outcome=\"failed\"} 1\n"), metrics)
    }

    /// Deliveries pending when the service stops are sent by the next start on the same data folder.
    func testPendingDeliveriesAreSentAfterARestart() throws {
        let receiver = try WebhookReceiver { _, _ in .status(503) }
        defer { receiver.stop() }
        let data = temporaryData()
        let settings = settings(urls: [receiver.url], maximumAttempts: 1_000)
        var server: FailscopeServer? = try startServer(data, settings)
        let before = LiveClient(base: "http://127.0.0.1:\(server!.port)", token: uploadToken)
        try upload(before, "durable", commit: "c1", minute: 1, [("testPay", true)])
        waitFor("a refused attempt") { receiver.requests.contains { $0.status == 503 } }
        server?.stop()
        server = nil
        let refused = receiver.requests
        XCTAssertFalse(refused.contains { $0.status == 200 })
        receiver.answer { _, _ in .status(200) }

        let restarted = try startServer(data, settings)
        defer { restarted.stop() }
        waitFor("the delivery after the restart") { receiver.requests.contains { $0.status == 200 } }
        let client = LiveClient(base: "http://127.0.0.1:\(restarted.port)", token: uploadToken)
        let webhooks = try WireCoding.decoder().decode(
            WebhookList.self, from: XCTUnwrap(client.send("GET", "/api/v1/webhooks")).body
        ).webhooks
        XCTAssertEqual(webhooks.map(\.url), [receiver.url], "the configured webhook kept its id")
        waitFor("logged as delivered") { (try? self.deliveries(client, webhooks[0].id))?.first?.status == .delivered }
        let logged = try deliveries(client, webhooks[0].id)
        XCTAssertEqual(logged.count, 1)
        XCTAssertGreaterThanOrEqual(logged[0].attempts, refused.count + 1)
        XCTAssertEqual(Set(receiver.requests.compactMap { $0.headers["X-Failscope-Event-Id"] }), [logged[0].eventId])
    }

    /// Two services on one database (as replicas would be) share the outbox: each event is delivered exactly once,
    /// whichever worker claimed it, though each answer takes long enough (0.3 s) for the other worker to poll
    /// several times while a delivery is in flight.
    func testTwoServicesOnOneDatabaseSendEachEventOnce() throws {
        let receiver = try WebhookReceiver { _, _ in .slow(0.3) }
        defer { receiver.stop() }
        let data = temporaryData()
        let settings = settings(urls: [receiver.url])
        let first = try startServer(data, settings)
        defer { first.stop() }
        let second = try startServer(data, settings)
        defer { second.stop() }
        for index in 0..<20 {
            let server = index.isMultiple(of: 2) ? first : second
            let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
            try upload(client, "replica-\(index)", commit: "c\(index)", minute: index, [("testPay", true)])
        }
        waitFor("20 runs announced") { Set(receiver.requests.compactMap { $0.event?.run.id }).count == 20 }
        let client = LiveClient(base: "http://127.0.0.1:\(first.port)", token: uploadToken)
        let webhookID = try XCTUnwrap(
            try WireCoding.decoder().decode(
                WebhookList.self, from: XCTUnwrap(client.send("GET", "/api/v1/webhooks")).body
            )
            .webhooks.first?.id)
        waitFor("every delivery logged") {
            (try? self.deliveries(client, webhookID))?.allSatisfy { $0.status == .delivered } == true
        }
        XCTAssertEqual(receiver.requests.count, 20, "no event was sent twice")
        XCTAssertEqual(try deliveries(client, webhookID).map(\.attempts), Array(repeating: 1, count: 20))
    }

    /// `failscope serve --webhook URL` with the secret in `FAILSCOPE_WEBHOOK_SECRET` signs with it and links to
    /// `--public-url`; the secret is never printed. Without a secret, or with a URL that is not http, it refuses to
    /// start (64).
    func testServeDeliversToItsConfiguredWebhook() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let server = try ServeProcess(
            data: temporaryData(),
            arguments: [
                "--upload-token", uploadToken, "--webhook", receiver.url, "--public-url", "https://failscope.example",
            ],
            environment: ProcessInfo.processInfo.environment.merging(["FAILSCOPE_WEBHOOK_SECRET": secret]) { $1 })
        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: uploadToken)
        try upload(client, "cli", commit: "c1", minute: 1, [("testPay", false)])
        waitFor("the run announced once its finishes settled") { receiver.requests.first?.status == 200 }
        let request = try XCTUnwrap(receiver.requests.first)
        XCTAssertEqual(request.event?.run.url, "https://failscope.example/#/runs/cli")
        XCTAssertEqual(request.event?.run.status, .failed)
        XCTAssertEqual(
            request.headers["X-Failscope-Signature"],
            independentSignature(key: Array(secret.utf8), message: request.body))
        XCTAssertEqual(server.stop(signal: SIGTERM), 0)
        XCTAssertTrue(server.output.contains("1 configured webhook(s); events link to https://failscope.example/"))
        XCTAssertFalse(server.output.contains(secret))
        XCTAssertFalse(server.output.contains(receiver.url), "a webhook URL may be a credential")

        for (arguments, message) in [
            (["--webhook", receiver.url], "--webhook needs --webhook-secret"),
            (
                ["--webhook", "ftp://hooks.example/x", "--webhook-secret", secret],
                "--webhook and --public-url must be http or https URLs with a host"
            ),
        ] {
            let outcome = try runProcess(
                BuildProducts.failscope, ["serve", "--port", "0", "--data", temporaryData().path] + arguments,
                environment: ProcessInfo.processInfo.environment.filter { $0.key != "FAILSCOPE_WEBHOOK_SECRET" })
            let text = outcome.standardError
            XCTAssertEqual(outcome.status, 64, text)
            XCTAssertTrue(text.contains(message), text)
        }
    }

    /// The webhook routes need an upload or the admin token and refuse bad input with the documented errors.
    func testTheWebhookRoutesNeedAnUploadOrTheAdminTokenAndRefuseBadInput() async throws {
        let adminToken = "admin-secret-webhooks"
        let service = try TestService(readToken: readToken, adminToken: adminToken)
        let body = try WireCoding.encoder().encode(
            WebhookCreate(url: "https://hooks.example/a", secret: "0123456789abcdef"))
        let anonymous = await service.send(.POST, "/api/v1/webhooks", token: nil, body: body)
        XCTAssertEqual(anonymous.status, .unauthorized)
        let reader = await service.send(.GET, "/api/v1/webhooks", token: readToken)
        XCTAssertEqual(reader.status, .unauthorized, "a URL may be a credential: reading needs a write token")
        let admin = await service.send(.POST, "/api/v1/webhooks", token: adminToken, body: body)
        XCTAssertEqual(admin.status, .created)
        let listed = await service.send(.GET, "/api/v1/webhooks", token: adminToken)
        XCTAssertEqual(try listed.decode(WebhookList.self).webhooks.map(\.url), ["https://hooks.example/a"])
        for (bad, reason) in [
            (#"{"url":"ftp://hooks.example/a","secret":"0123456789abcdef"}"#, "not http"),
            (#"{"url":"https://hooks.example/a","secret":"short"}"#, "a short secret"),
            (#"{"url":"/relative","secret":"0123456789abcdef"}"#, "no host"),
            (#"{"url":"https://hooks.example/b","secret":"0123456789abcdef","events":[]}"#, "no event type"),
            (#"{"url":"https://hooks.example/b","secret":"0123456789abcdef","branches":[""]}"#, "an empty pattern"),
        ] {
            let response = await service.send(.POST, "/api/v1/webhooks", body: Data(bad.utf8))
            XCTAssertEqual(response.status, .unprocessableContent, reason)
            XCTAssertEqual(response.errorCode, "validation_failed", reason)
        }
        let unknownEvent = await service.send(
            .POST, "/api/v1/webhooks",
            body: Data(#"{"url":"https://hooks.example/b","secret":"0123456789abcdef","events":["run.started"]}"#.utf8))
        XCTAssertEqual(unknownEvent.status, .badRequest, "an unknown event type is not a WebhookCreate")
        XCTAssertEqual(
            unknownEvent.errorMessage,
            "Invalid value at 'events[0]': expected one of run.finished, test.flaky, test.broken, test.fixed.")
        // A misspelt filter key is refused, not ignored (ignored, it would send the webhook every event).
        let misspelt = await service.send(
            .POST, "/api/v1/webhooks",
            body: Data(#"{"url":"https://hooks.example/b","secret":"0123456789abcdef","evnts":["run.finished"]}"#.utf8))
        XCTAssertEqual(misspelt.status, .badRequest)
        XCTAssertEqual(misspelt.errorMessage, "Unknown key 'evnts' in the body.")
        let wrongType = await service.send(
            .POST, "/api/v1/webhooks",
            body: Data(#"{"url":"https://hooks.example/b","secret":"0123456789abcdef","events":"run.finished"}"#.utf8))
        XCTAssertEqual(wrongType.errorMessage, "Wrong type at 'events': expected an array.")
        XCTAssertEqual(try service.store.webhooks().webhooks.map(\.url), ["https://hooks.example/a"])
        let filtered = await service.send(
            .POST, "/api/v1/webhooks",
            body: Data(
                #"{"url":"https://hooks.example/b","secret":"0123456789abcdef","events":["test.broken"],"branches":["release/*"]}"#
                    .utf8))
        XCTAssertEqual(filtered.status, .created)
        let made = try filtered.decode(Webhook.self)
        XCTAssertEqual(made.events, [.testBroken])
        XCTAssertEqual(made.branches, ["release/*"])
        try service.store.configureWebhooks(urls: ["https://hooks.example/configured"], secret: "s")
        let configured = try XCTUnwrap(try service.store.webhooks().webhooks.first { $0.source == .configuration })
        let refused = await service.send(.DELETE, "/api/v1/webhooks/\(configured.id)")
        XCTAssertEqual(refused.status, .conflict)
        let missing = await service.send(.DELETE, "/api/v1/webhooks/wh-none")
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertEqual(missing.errorCode, "webhook_not_found")
        let log = await service.send(.GET, "/api/v1/webhooks/wh-none/deliveries")
        XCTAssertEqual(log.errorCode, "webhook_not_found")
    }
}
