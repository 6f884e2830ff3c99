import Foundation
import HTTPRouting
import HTTPServer
import XCTest

final class RouterTests: XCTestCase {
    struct RunNotFound: HTTPError {
        let status = HTTPStatus.notFound
        let code = "run_not_found"
        let message = "No run 'r1'."
    }

    struct DatabaseExploded: Error, CustomStringConvertible {
        var description: String { "SQL error: no such table runs (SELECT * FROM runs)" }
    }

    actor Counter {
        var value = 0
        func next() -> Int {
            value += 1
            return value
        }
    }

    func makeRouter(log: InMemoryAccessLog = InMemoryAccessLog()) -> Router {
        var router = Router(accessLog: log)
        let counter = Counter()
        router.get("/healthz") { _ in .text("ok") }
        router.get("/api/v1/runs/{runId}") { request in
            guard request.parameters["runId"] == "r 1" else { throw RunNotFound() }
            return try .json(["id": request.parameters["runId"]!, "route": request.route])
        }
        router.put("/api/v1/runs/{runId}", maxBodyBytes: 16) { request in
            .text("stored \(request.body.count) bytes for \(try request.parameter("runId"))", status: .created)
        }
        router.get("/artifacts/{sha256}.png") { request in .text(request.parameters["sha256"]!) }
        router.get("/search") { request in
            .text("q=\(request.query["q"] ?? "-") tags=\(request.query.values(for: "tag").joined(separator: ","))")
        }
        router.get("/async") { _ in .text("count \(await counter.next())") }
        router.get("/boom") { _ in throw DatabaseExploded() }
        router.get("/files/{path...}") { request in .text("rest=\(request.parameters["path"]!)") }
        return router
    }

    func get(_ router: Router, _ target: String, method: HTTPMethod = .GET, body: Data = Data()) async -> Response {
        await router.respond(to: Request(method: method, target: target, body: body))
    }

    func errorCode(_ response: Response, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: response.bodyBytes()) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else {
            XCTFail("Not a JSON error body: \(response.bodyText)", file: file, line: line)
            return nil
        }
        XCTAssertNotNil(error["message"] as? String, file: file, line: line)
        XCTAssertEqual(response.headers["content-type"], "application/json", file: file, line: line)
        return error["code"] as? String
    }

    func testPathParameterIsDecodedAndRoutePatternReported() async throws {
        let response = await get(makeRouter(), "/api/v1/runs/r%201")
        XCTAssertEqual(response.status, .ok)
        let object = try JSONSerialization.jsonObject(with: response.bodyBytes()) as? [String: String]
        XCTAssertEqual(object?["id"], "r 1")
        XCTAssertEqual(object?["route"], "/api/v1/runs/{runId}")
    }

    func testHTTPErrorBecomesItsStatusAndJSONBody() async {
        let response = await get(makeRouter(), "/api/v1/runs/r2")
        XCTAssertEqual(response.status.code, 404)
        XCTAssertEqual(response.bodyText, #"{"error":{"code":"run_not_found","message":"No run 'r1'."}}"#)
        XCTAssertEqual(response.headers["X-Content-Type-Options"], "nosniff")
    }

    func testOtherErrorsBecomeGeneric500WithoutInternals() async {
        let log = InMemoryAccessLog()
        let response = await get(makeRouter(log: log), "/boom")
        XCTAssertEqual(response.status.code, 500)
        XCTAssertEqual(errorCode(response), "internal_error")
        XCTAssertFalse(response.bodyText.contains("SQL"), response.bodyText)
        XCTAssertEqual(log.entries.last?.error, "SQL error: no such table runs (SELECT * FROM runs)")
    }

    func testUnknownPathIs404AndWrongMethodIs405WithAllow() async {
        let router = makeRouter()
        let missing = await get(router, "/nope")
        XCTAssertEqual(missing.status.code, 404)
        XCTAssertEqual(errorCode(missing), "not_found")

        let wrongMethod = await get(router, "/api/v1/runs/r1", method: .DELETE)
        XCTAssertEqual(wrongMethod.status.code, 405)
        XCTAssertEqual(errorCode(wrongMethod), "method_not_allowed")
        XCTAssertEqual(wrongMethod.headers["allow"], "GET, HEAD, PUT")
    }

    func testHeadUsesGetRouteWithoutBody() async {
        let response = await get(makeRouter(), "/healthz", method: .HEAD)
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers["Content-Type"], "text/plain; charset=utf-8")
        XCTAssertEqual(response.bodyLength, 0)
    }

    func testBodyOverRouteLimitIs413() async {
        let router = makeRouter()
        let fits = await get(router, "/api/v1/runs/r1", method: .PUT, body: Data(repeating: 65, count: 16))
        XCTAssertEqual(fits.status, .created)
        XCTAssertEqual(fits.bodyText, "stored 16 bytes for r1")

        let tooBig = await get(router, "/api/v1/runs/r1", method: .PUT, body: Data(repeating: 65, count: 17))
        XCTAssertEqual(tooBig.status.code, 413)
        XCTAssertEqual(errorCode(tooBig), "body_too_large")
    }

    func testQueryStringIsPercentAndPlusDecodedWithRepeats() async {
        let response = await get(makeRouter(), "/search?q=a+b%26c&tag=x&tag=%C3%A9&empty")
        XCTAssertEqual(response.bodyText, "q=a b&c tags=x,é")
    }

    func testParameterWithSuffixAndRestParameter() async {
        let router = makeRouter()
        let png = await get(router, "/artifacts/abc123.png")
        XCTAssertEqual(png.bodyText, "abc123")
        let notPNG = await get(router, "/artifacts/abc123.gif")
        XCTAssertEqual(notPNG.status.code, 404)
        let rest = await get(router, "/files/a/b%20c.txt")
        XCTAssertEqual(rest.bodyText, "rest=a/b%20c.txt")
    }

    func testAsyncHandlerRuns() async {
        let router = makeRouter()
        let first = await get(router, "/async")
        let second = await get(router, "/async")
        XCTAssertEqual([first.bodyText, second.bodyText], ["count 1", "count 2"])
    }

    func testDotSegmentsAndMalformedEscapesAre400() async {
        let router = makeRouter()
        for target in [
            "/files/../Package.swift", "/files/%2e%2e/Package.swift", "/files/./x", "/files/%zz", "/files/a%00b",
        ] {
            let response = await get(router, target)
            XCTAssertEqual(response.status.code, 400, target)
            XCTAssertEqual(errorCode(response), "invalid_path", target)
        }
    }

    func testEveryResponseCarriesRequestIdAndOneLogEntry() async {
        let log = InMemoryAccessLog()
        let router = makeRouter(log: log)
        let mine = await router.respond(
            to: Request(method: .GET, target: "/healthz", headers: ["x-request-id": "abc-123"]))
        XCTAssertEqual(mine.headers["X-Request-Id"], "abc-123")
        let hostile = await router.respond(
            to: Request(method: .GET, target: "/nope", headers: ["X-Request-Id": "bad id\nInjected: 1"]))
        let made = hostile.headers["X-Request-Id"] ?? ""
        XCTAssertEqual(made.count, 16)
        XCTAssertNotEqual(made, RequestID.make())

        XCTAssertEqual(log.entries.map(\.requestID), ["abc-123", made])
        XCTAssertEqual(log.entries.map(\.status), [200, 404])
        XCTAssertEqual(log.entries.map(\.route), ["/healthz", ""])
        XCTAssertTrue(log.entries[0].line.hasPrefix("GET /healthz 200 2B "), log.entries[0].line)
        XCTAssertTrue(log.entries[0].line.hasSuffix("ms id=abc-123"), log.entries[0].line)
    }

    func testHeadersAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "a"]
        XCTAssertEqual(headers["CONTENT-type"], "a")
        headers["content-TYPE"] = "b"
        XCTAssertEqual(headers.count, 1)
        XCTAssertEqual(headers["Content-Type"], "b")
        XCTAssertNil(headers["Content-Typ"])
        XCTAssertNil(headers["Content-Typf"])
    }

    func testDecodeJSONNamesTheFieldNotTheData() throws {
        struct Run: Decodable { let id: String; let count: Int }
        let request = Request(
            method: .PUT, target: "/x", headers: ["Content-Type": "application/json"],
            body: Data(#"{"id":"secret-value","count":"many"}"#.utf8))
        XCTAssertThrowsError(try request.decodeJSON(Run.self)) { error in
            let error = error as? HTTPStatusError
            XCTAssertEqual(error?.status.code, 400)
            XCTAssertEqual(error?.code, "invalid_json")
            XCTAssertEqual(error?.message, "Wrong type at 'count': expected an integer.")
        }
    }

    func testDecodeJSONTellsANumberThatDoesNotFitFromBrokenJSON() throws {
        struct Run: Decodable { let id: String; let count: Int }
        for (body, message) in [
            (#"{"id":"r","count":1.5}"#, "A number does not fit its field (a fraction or an out-of-range number where an integer is expected)."),
            (#"{"id":"r","count":1e30}"#, "A number does not fit its field (a fraction or an out-of-range number where an integer is expected)."),
            (#"{"id":"r","count":1"#, "The body is not valid JSON."),
        ] {
            let request = Request(
                method: .PUT, target: "/x", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            XCTAssertThrowsError(try request.decodeJSON(Run.self), body) { error in
                XCTAssertEqual((error as? HTTPStatusError)?.code, "invalid_json", body)
                XCTAssertEqual((error as? HTTPStatusError)?.message, message, body)
            }
        }
    }
}

final class AccessLogLineTests: XCTestCase {
    func testLineShowsMethodPathStatusBytesMillisecondsAndId() {
        let entry = AccessLogEntry(
            method: .POST, path: "/api/v1/runs/r1/results", route: "/api/v1/runs/{runId}/results", status: 201,
            bytes: 42, nanoseconds: 1_234_567, requestID: "abc", error: nil)
        XCTAssertEqual(entry.line, "POST /api/v1/runs/r1/results 201 42B 1.23ms id=abc")
    }

    func testControlCharactersCannotForgeLines() {
        let entry = AccessLogEntry(
            method: .GET, path: "/x\nGET /forged 200", route: "", status: 500, bytes: 0, nanoseconds: 50_000,
            requestID: "id", error: "boom\r\nsecond line")
        XCTAssertEqual(entry.line, "GET /x?GET /forged 200 500 0B 0.05ms id=id error=\"boom??second line\"")
    }
}
