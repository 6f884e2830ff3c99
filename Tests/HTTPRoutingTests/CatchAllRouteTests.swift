import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// A `GET /{path...}` catch-all (the dashboard's static files) never answers for a path another route claims.
final class CatchAllRouteTests: XCTestCase {
    func makeRouter() -> Router {
        var router = Router(accessLog: DiscardingAccessLog())
        router.get("/{path...}") { request in .text("file \(request.parameters["path"] ?? "")") }
        router.post("/api/v1/runs/{runId}/finish", maxBodyBytes: 64) { _ in .text("finished") }
        router.get("/healthz") { _ in .text("ok") }
        return router
    }

    func testAPathClaimedByAnotherRouteIs405WithItsOwnAllow() async {
        let router = makeRouter()
        let wrong = await router.respond(
            to: Request(method: .GET, target: "/api/v1/runs/r1/finish", body: Data(#"{"a":1}"#.utf8)))
        XCTAssertEqual(wrong.status, .methodNotAllowed, "not 413 from the catch-all's empty body limit")
        XCTAssertEqual(wrong.headers["Allow"], "POST")
        let right = await router.respond(to: Request(method: .POST, target: "/api/v1/runs/r1/finish"))
        XCTAssertEqual(right.bodyText, "finished")
    }

    func testASpecificRouteWinsOverAnEarlierCatchAllAndOtherPathsFallThrough() async {
        let router = makeRouter()
        let health = await router.respond(to: Request(method: .GET, target: "/healthz"))
        XCTAssertEqual(health.bodyText, "ok")
        let file = await router.respond(to: Request(method: .GET, target: "/css/app.css"))
        XCTAssertEqual(file.bodyText, "file css/app.css")
        let head = await router.respond(to: Request(method: .HEAD, target: "/index.html"))
        XCTAssertEqual(head.status, .ok)
        let delete = await router.respond(to: Request(method: .DELETE, target: "/index.html"))
        XCTAssertEqual(delete.headers["Allow"], "GET, HEAD")
    }
}
