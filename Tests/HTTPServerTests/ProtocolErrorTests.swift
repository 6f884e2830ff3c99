import FailscopeTesting
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// Through a real socket: requests that are too big or odd get the JSON error shape from our handler, before
/// libmicrohttpd's own (HTML) limits; what libmicrohttpd still answers itself is pinned down here too.
final class ProtocolErrorTests: XCTestCase {
    var server: HTTPServer!
    let log = InMemoryAccessLog()
    let picture = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    override func setUpWithError() throws {
        var router = Router(accessLog: log)
        router.get("/hello") { _ in .text("hello") }
        let shared = SharedBytes(picture)
        router.get("/picture") { _ in
            Response(status: .ok, headers: ["Content-Type": "image/png"], body: .shared(shared))
        }
        let prepared = PreparedResponse(
            headers: ["Content-Type": "image/png", "ETag": "\"p1\"", "Content-Length": "1"], body: shared)
        router.get("/prepared") { _ in Response(prepared: prepared) }
        server = try HTTPServer(responder: router, configuration: HTTPServerConfiguration(port: 0, threadCount: 2))
    }

    override func tearDown() {
        server?.shutdown(gracePeriod: 1)
    }

    private func assertJSONError(
        _ reply: RawHTTPClient.Reply, status: Int, code: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(reply.status, status, reply.text, file: file, line: line)
        XCTAssertEqual(reply.header("Content-Type"), "application/json", file: file, line: line)
        let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: [String: String]]
        XCTAssertEqual(object?["error"]?["code"], code, reply.text, file: file, line: line)
        XCTAssertNotNil(object?["error"]?["message"], file: file, line: line)
    }

    func testLongRequestTargetsAreJSON414AndTheConnectionStaysUsable() throws {
        let client = try RawHTTPClient(port: server.port)
        assertJSONError(
            try client.request("GET", "/hello?q=" + String(repeating: "a", count: 9000)), status: 414,
            code: "uri_too_long")
        assertJSONError(
            try client.request("GET", "/hello/" + String(repeating: "b", count: 9000)), status: 414,
            code: "uri_too_long")
        XCTAssertEqual(try client.request("GET", "/hello").text, "hello")
        // Just under the limit is an ordinary request.
        XCTAssertEqual(try client.request("GET", "/hello?q=" + String(repeating: "a", count: 8000)).status, 200)
        XCTAssertEqual(log.entries.filter { $0.status == 414 }.count, 2)
    }

    func testLargeOrManyHeaderFieldsAreJSON431() throws {
        let client = try RawHTTPClient(port: server.port)
        assertJSONError(
            try client.request("GET", "/hello", headers: [("X-Big", String(repeating: "c", count: 9000))]),
            status: 431, code: "headers_too_large")
        let many = (0..<150).map { ("X-Field-\($0)", "v") }
        assertJSONError(try client.request("GET", "/hello", headers: many), status: 431, code: "headers_too_large")
        XCTAssertEqual(try client.request("GET", "/hello", headers: Array(many.prefix(60))).status, 200)
    }

    /// Requests that nearly filled libmicrohttpd's 16 KiB buffer once got no answer at all (no room left for
    /// the 414's header), and 250 small header fields got libmicrohttpd's HTML 431.
    func testRequestsNearTheOldBufferSizeStillGetJSON() throws {
        for length in [15_900, 16_000, 16_100, 16_300] {
            let client = try RawHTTPClient(port: server.port)
            assertJSONError(
                try client.request("GET", "/hello?q=" + String(repeating: "a", count: length)), status: 414,
                code: "uri_too_long")
            assertJSONError(
                try RawHTTPClient(port: server.port).request(
                    "GET", "/hello", headers: [("X-Big", String(repeating: "c", count: length))]),
                status: 431, code: "headers_too_large")
        }
        let many = (0..<250).map { ("X-H\($0)", "v") }
        assertJSONError(
            try RawHTTPClient(port: server.port).request("GET", "/hello", headers: many), status: 431,
            code: "headers_too_large")
    }

    /// RFC 9112 §6.3: a body length that two readers could take differently (a proxy in front, this server) is
    /// refused, and the connection closed, instead of trusting the first Content-Length.
    func testAmbiguousBodyLengthsAre400AndCloseTheConnection() throws {
        let requests = [
            "POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 14\r\nContent-Length: 3\r\n\r\n{\"results\":[]}",
            "POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc",
            "POST /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
        ]
        for text in requests {
            let client = try RawHTTPClient(port: server.port)
            try client.send(text)
            let reply = try client.readReply()
            assertJSONError(reply, status: 400, code: "ambiguous_length")
            XCTAssertEqual(reply.header("Connection")?.lowercased(), "close")
            XCTAssertTrue(client.readsEndOfStream(), text)
        }
        // The same length twice is not ambiguous.
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(try client.readReply().text, "hello")
    }

    func testTraceWithABodyIsJSON405AndTheConnectionStaysUsable() throws {
        let client = try RawHTTPClient(port: server.port)
        let trace = try client.request("TRACE", "/hello", body: Data(#"{"probe":true}"#.utf8))
        assertJSONError(trace, status: 405, code: "method_not_allowed")
        XCTAssertEqual(trace.header("Allow"), "GET, HEAD")
        let chunked = "TRACE /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        try client.send(chunked)
        assertJSONError(try client.readReply(), status: 405, code: "method_not_allowed")
        let unknown = try client.request("TRACE", "/nowhere", body: Data("x".utf8))
        assertJSONError(unknown, status: 404, code: "not_found")
        XCTAssertEqual(try client.request("GET", "/hello").text, "hello")
    }

    func testSharedBytesAreSentWholeToEveryRequest() throws {
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<3 {
            let reply = try client.request("GET", "/picture")
            XCTAssertEqual(reply.status, 200)
            XCTAssertEqual(reply.body, picture)
        }
        let head = try client.request("HEAD", "/picture")
        XCTAssertEqual(head.header("Content-Length"), "\(picture.count)")
        XCTAssertEqual(try client.request("GET", "/hello").text, "hello")
    }

    func testAPreparedResponseIsOneObjectSentWholeOnEveryConnection() throws {
        let clients = try (0..<3).map { _ in try RawHTTPClient(port: server.port) }
        for _ in 0..<2 {
            for client in clients {
                let reply = try client.request("GET", "/prepared")
                XCTAssertEqual(reply.status, 200)
                XCTAssertEqual(reply.body, picture)
                XCTAssertEqual(reply.header("ETag"), "\"p1\"")
                XCTAssertEqual(reply.header("Content-Length"), "\(picture.count)", "the transport's own length wins")
                XCTAssertNil(reply.header("X-Request-Id"), "fixed fields: the id is only in the log")
            }
        }
        let head = try clients[0].request("HEAD", "/prepared")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "\(picture.count)")
        XCTAssertEqual(try clients[0].request("GET", "/hello").text, "hello")
        XCTAssertEqual(log.entries.filter { $0.path == "/prepared" }.count, 7)
        XCTAssertEqual(Set(log.entries.map(\.requestID)).count, log.entries.count)
    }

    /// What libmicrohttpd 0.9.75 answers before our handler runs, with its own HTML page (it offers no hook to
    /// replace the body): here a malformed Content-Length. The full list is in ``HTTPServer``'s documentation.
    func testMalformedContentLengthIsStillLibmicrohttpdsOwn400() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
        let reply = try client.readReply()
        XCTAssertEqual(reply.status, 400)
        XCTAssertNotEqual(reply.header("Content-Type"), "application/json")
        XCTAssertTrue(log.entries.isEmpty, "the handler never saw it")
    }
}
