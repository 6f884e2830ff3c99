import Dispatch
import FailscopeTesting
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// Through a real socket: a server on an ephemeral loopback port, raw HTTP/1.1 requests.
final class HTTPServerLiveTests: XCTestCase {
    var server: HTTPServer!
    var log: InMemoryAccessLog!
    var staticRoot: URL!
    let gate = DispatchSemaphore(value: 0)

    override func setUpWithError() throws {
        staticRoot = FileManager.default.temporaryDirectory.appendingPathComponent("httpserver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: staticRoot.appendingPathComponent("css"), withIntermediateDirectories: true)
        try Data("<h1>Failscope</h1>".utf8).write(to: staticRoot.appendingPathComponent("index.html"))
        try Data("body{}".utf8).write(to: staticRoot.appendingPathComponent("css/app.css"))
        try Data("secret".utf8).write(to: staticRoot.appendingPathComponent(".env"))

        log = InMemoryAccessLog()
        var router = Router(accessLog: log)
        router.get("/hello") { _ in .text("hello") }
        router.get("/whoami") { request in .text(request.remoteAddress ?? "unknown") }
        router.post("/echo", maxBodyBytes: 512 * 1024) { request in
            var sum: UInt64 = 0
            for byte in request.body { sum &+= UInt64(byte) }
            return .text("\(request.body.count) \(sum)")
        }
        router.get("/async") { request in
            let value = await Task.detached { request.query["name"] ?? "?" }.value
            return .text("async \(value)")
        }
        router.get("/slow") { [gate] _ in
            _ = gate.wait(timeout: .now() + 10)
            return .text("finished")
        }
        let files = StaticFiles(root: staticRoot.path)
        router.get("/static/{path...}", files.respond)
        server = try HTTPServer(responder: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 2))
    }

    override func tearDown() {
        server?.shutdown(gracePeriod: 1)
        if let staticRoot { try? FileManager.default.removeItem(at: staticRoot) }
    }

    func testEphemeralPortIsBound() {
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertNotEqual(server.port, 8080)
    }

    func testKeepAliveServesTwoRequestsOnOneConnection() throws {
        let client = try RawHTTPClient(port: server.port)
        let first = try client.request("GET", "/hello")
        let second = try client.request("GET", "/hello", headers: [("X-Request-Id", "second-1")])
        XCTAssertEqual([first.status, second.status], [200, 200])
        XCTAssertEqual([first.text, second.text], ["hello", "hello"])
        XCTAssertNil(first.header("Connection").flatMap { $0.lowercased() == "close" ? $0 : nil })
        XCTAssertNil(second.header("Connection").flatMap { $0.lowercased() == "close" ? $0 : nil })
        XCTAssertEqual(first.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(first.header("X-Request-Id")?.count, 16)
        XCTAssertEqual(second.header("X-Request-Id"), "second-1")
    }

    func testSixKilobyteHeaderFitsTheDefaultConnectionBuffer() throws {
        let cookie = String(repeating: "c", count: 6000)
        let reply = try RawHTTPClient(port: server.port).request("GET", "/hello", headers: [("Cookie", cookie)])
        XCTAssertEqual(reply.status, 200)
    }

    func testRemoteAddressIsThePeer() throws {
        let reply = try RawHTTPClient(port: server.port).request("GET", "/whoami")
        XCTAssertTrue(reply.text.hasPrefix("127.0.0.1:"), reply.text)
        XCTAssertGreaterThan(Int(reply.text.dropFirst("127.0.0.1:".count)) ?? 0, 0)
    }

    func testLargeBodyArrivesWhole() throws {
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let expectedSum = body.reduce(UInt64(0)) { $0 &+ UInt64($1) }
        let reply = try RawHTTPClient(port: server.port).request("POST", "/echo", body: body)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.text, "300000 \(expectedSum)")
    }

    func testChunkedBodyArrivesWhole() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        )
        let reply = try client.readReply()
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.text, "11 \(Data("hello world".utf8).reduce(UInt64(0)) { $0 + UInt64($1) })")
    }

    func testBodyOverLimitIs413ByContentLengthBeforeTheBodyIsSent() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 600000\r\n\r\n")
        let reply = try client.readReply()
        XCTAssertEqual(reply.status, 413)
        XCTAssertEqual(reply.header("Content-Type"), "application/json")
        XCTAssertEqual(
            reply.text,
            #"{"error":{"code":"body_too_large","message":"The request body is larger than 524288 bytes."}}"#)
    }

    func testChunkedBodyOverLimitIs413AndConnectionStaysUsable() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Data("8000\r\n".utf8) + Data(repeating: 97, count: 0x8000) + Data("\r\n".utf8)
        for _ in 0..<20 { try client.send(chunk) }  // 640 KiB against a 512 KiB limit
        try client.send("0\r\n\r\n")
        let reply = try client.readReply()
        XCTAssertEqual(reply.status, 413)
        XCTAssertTrue(reply.text.contains("body_too_large"), reply.text)
        XCTAssertEqual(try client.request("GET", "/hello").text, "hello")
        XCTAssertTrue(log.entries.contains { $0.status == 413 && $0.path == "/echo" })
    }

    func testEndlessChunkedBodyIsCutOffWith413() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Data("10000\r\n".utf8) + Data(repeating: 97, count: 0x10000) + Data("\r\n".utf8)
        // The limit plus the 1 MiB discard allowance is 1.5 MiB; the server must stop reading well before 64 MiB.
        var sent = 0
        while sent < 1024, (try? client.send(chunk)) != nil { sent += 1 }
        XCTAssertLessThan(sent, 1024, "the server kept reading an endless body")
        XCTAssertTrue(waitUntil { self.log.entries.contains { $0.status == 413 && $0.bytes == 0 } })
    }

    func testUnknownPathAndWrongMethodAreJSONErrors() throws {
        let client = try RawHTTPClient(port: server.port)
        let missing = try client.request("GET", "/nothing-here")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.text.hasPrefix(#"{"error":{"code":"not_found","#), missing.text)
        let wrong = try client.request("DELETE", "/hello")
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("Allow"), "GET, HEAD")
        XCTAssertTrue(wrong.text.hasPrefix(#"{"error":{"code":"method_not_allowed","#), wrong.text)
    }

    func testHeadHasGetHeadersWithoutBody() throws {
        let client = try RawHTTPClient(port: server.port)
        let head = try client.request("HEAD", "/static/index.html")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "18")
        XCTAssertEqual(head.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(head.body.isEmpty)
        // The connection is still in sync: a following GET gets its own body.
        let get = try client.request("GET", "/static/index.html")
        XCTAssertEqual(get.text, "<h1>Failscope</h1>")
    }

    func testStaticFilesWithETagRevalidation() throws {
        let client = try RawHTTPClient(port: server.port)
        let css = try client.request("GET", "/static/css/app.css")
        XCTAssertEqual(css.status, 200)
        XCTAssertEqual(css.text, "body{}")
        XCTAssertEqual(css.header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertEqual(css.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(css.header("Cache-Control"), "no-cache")
        let etag = try XCTUnwrap(css.header("ETag"))
        let again = try client.request("GET", "/static/css/app.css", headers: [("If-None-Match", etag)])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        let index = try client.request("GET", "/static/")
        XCTAssertEqual(index.text, "<h1>Failscope</h1>")
        XCTAssertEqual(try client.request("GET", "/static/css").status, 404, "no directory listing")
    }

    func testPathTraversalNeverReachesTheFileSystem() throws {
        // The static root's parent holds a file the attacks aim at.
        let target = staticRoot.deletingLastPathComponent().appendingPathComponent("Package.swift")
        let existed = FileManager.default.fileExists(atPath: target.path)
        if !existed { try Data("// target".utf8).write(to: target) }
        defer { if !existed { try? FileManager.default.removeItem(at: target) } }

        let attacks: [(String, Int)] = [
            ("/static/../Package.swift", 400), ("/static/%2e%2e/Package.swift", 400),
            ("/static/%2E%2E/Package.swift", 400), ("/static/..%2FPackage.swift", 404),
            ("/static/css/..%2f..%2fPackage.swift", 404), ("/static/%2F..%2FPackage.swift", 404),
            ("/static/css%2F..%2F..%2FPackage.swift", 404), ("/static/.env", 404), ("/static/%2eenv", 404),
            ("/static/css//app.css", 404), ("/static/..\\Package.swift", 404), ("/static/index.html%00.png", 400),
        ]
        for (attack, status) in attacks {
            let reply = try RawHTTPClient(port: server.port).request("GET", attack)
            XCTAssertEqual(reply.status, status, attack)
            XCTAssertFalse(reply.text.contains("target") || reply.text.contains("secret"), attack)
            XCTAssertEqual(reply.header("Content-Type"), "application/json", attack)
        }
    }

    func testQueryIsDecodedAndAsyncHandlersAnswer() throws {
        let client = try RawHTTPClient(port: server.port)
        let reply = try client.request("GET", "/async?name=J%C3%BCrgen+K")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.text, "async Jürgen K")
        // Keep-alive also survives a suspended and resumed connection.
        XCTAssertEqual(try client.request("GET", "/async?name=2").text, "async 2")
    }

    func testAccessLogHasOneLinePerRequest() throws {
        let client = try RawHTTPClient(port: server.port)
        _ = try client.request("GET", "/hello", headers: [("X-Request-Id", "log-check")])
        _ = try client.request("GET", "/missing")
        let entries = log.entries
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries.first?.requestID, "log-check")
        XCTAssertEqual(entries.map(\.status), [200, 404])
        XCTAssertEqual(entries.map(\.bytes).first, 5)
        XCTAssertTrue(entries[0].line.hasPrefix("GET /hello 200 5B "), entries[0].line)
    }

    func testGracefulShutdownFinishesInFlightRequest() throws {
        let port = server.port
        let replies = ReplyBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            replies.set(Result { try RawHTTPClient(port: port).request("GET", "/slow") })
            done.signal()
        }
        XCTAssertTrue(waitUntil { self.server.inFlightRequests == 1 }, "the slow request never arrived")

        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [server] in
            server!.shutdown(gracePeriod: 10)
            stopped.signal()
        }
        // New connections are refused while the in-flight request is still running.
        XCTAssertTrue(waitUntil { (try? RawHTTPClient(port: port)) == nil }, "still accepting after shutdown began")
        XCTAssertFalse(server.isStopped)

        gate.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let reply = try XCTUnwrap(replies.get()).get()
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.text, "finished")
        XCTAssertEqual(reply.header("Connection")?.lowercased(), "close")
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(server.isStopped)
    }
}

final class ReplyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<RawHTTPClient.Reply, any Error>?
    func set(_ value: Result<RawHTTPClient.Reply, any Error>) { lock.withLock { self.value = value } }
    func get() -> Result<RawHTTPClient.Reply, any Error>? { lock.withLock { value } }
}

/// Timeouts and refused bodies, with their own short-timeout server.
final class HTTPServerTimeoutTests: XCTestCase {
    let log = InMemoryAccessLog()

    func makeServer(connectionTimeout: Int = 30, requestTimeout: Double = 60) throws -> HTTPServer {
        var router = Router(accessLog: log)
        router.post("/upload", maxBodyBytes: 1 << 20) { request in .text("\(request.body.count)") }
        return try HTTPServer(
            responder: router,
            configuration: HTTPServerConfiguration(
                port: 0, threadCount: 1, connectionTimeout: connectionTimeout, requestTimeout: requestTimeout))
    }

    func testIdleConnectionIsClosedAfterConnectionTimeout() throws {
        let server = try makeServer(connectionTimeout: 1)
        defer { server.shutdown(gracePeriod: 0) }
        let client = try RawHTTPClient(port: server.port)
        let start = DispatchTime.now()
        XCTAssertTrue(client.readsEndOfStream(), "an idle connection was not closed")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        XCTAssertGreaterThan(seconds, 0.5)
        XCTAssertLessThan(seconds, 4.5)
    }

    /// libmicrohttpd 0.9.75 cannot send a response in the middle of a body: the connection is closed and the
    /// access log records the 408.
    func testSlowUploadIsCutOffAndLoggedAs408() throws {
        let server = try makeServer(requestTimeout: 0.2)
        defer { server.shutdown(gracePeriod: 0) }
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n")
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(400))  // the upload stalls
        try client.send("3\r\ndef\r\n")
        XCTAssertTrue(client.readsEndOfStream())
        XCTAssertEqual(log.entries.map(\.status), [408])
    }

    func testBodySentToUnknownRouteGets404AndKeepsConnection() throws {
        let server = try makeServer()
        defer { server.shutdown(gracePeriod: 0) }
        let client = try RawHTTPClient(port: server.port)
        let reply = try client.request("POST", "/nowhere", body: Data(repeating: 120, count: 200_000))
        XCTAssertEqual(reply.status, 404)
        XCTAssertEqual(try client.request("POST", "/upload", body: Data("xyz".utf8)).text, "3")
    }
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real client (URLSession) against the server: JSON in, JSON out, error bodies.
final class HTTPServerURLSessionTests: XCTestCase {
    struct Run: Codable, Equatable {
        let id: String
        let branch: String
    }

    func testURLSessionPutsAndGetsJSON() async throws {
        let stored = InMemoryAccessLog()
        var router = Router(accessLog: stored)
        router.put("/api/v1/runs/{runId}", maxBodyBytes: 4096) { request in
            let run = try request.decodeJSON(Run.self)
            guard run.id == request.parameters["runId"] else {
                throw HTTPStatusError.badRequest("The body's id differs from the path's.", code: "id_mismatch")
            }
            return try .json(run, status: .created)
        }
        let server = try HTTPServer(responder: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 2))
        defer { server.shutdown(gracePeriod: 1) }
        let base = "http://127.0.0.1:\(server.port)"

        var put = URLRequest(url: URL(string: "\(base)/api/v1/runs/r-1")!)
        put.httpMethod = "PUT"
        put.setValue("application/json", forHTTPHeaderField: "Content-Type")
        put.httpBody = try JSONEncoder().encode(Run(id: "r-1", branch: "main"))
        let (body, response) = try await URLSession.shared.data(for: put)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 201)
        XCTAssertEqual(try JSONDecoder().decode(Run.self, from: body), Run(id: "r-1", branch: "main"))
        XCTAssertEqual(http.value(forHTTPHeaderField: "X-Request-Id")?.count, 16)

        put.url = URL(string: "\(base)/api/v1/runs/r-2")!
        let (errorBody, errorResponse) = try await URLSession.shared.data(for: put)
        XCTAssertEqual((errorResponse as? HTTPURLResponse)?.statusCode, 400)
        XCTAssertEqual(
            String(decoding: errorBody, as: UTF8.self),
            #"{"error":{"code":"id_mismatch","message":"The body's id differs from the path's."}}"#)

        put.httpBody = Data(repeating: 32, count: 5000)
        let (_, tooLarge) = try await URLSession.shared.data(for: put)
        XCTAssertEqual((tooLarge as? HTTPURLResponse)?.statusCode, 413)
        XCTAssertEqual(stored.entries.map(\.status), [201, 400, 413])
        XCTAssertEqual(Set(stored.entries.map(\.route)), ["/api/v1/runs/{runId}"])
    }
}
