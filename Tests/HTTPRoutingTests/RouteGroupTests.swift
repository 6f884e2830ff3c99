import Foundation
import HTTPRouting
import XCTest

/// Route groups: head middleware written once for a group of routes, checked before the body and the handler.
final class RouteGroupTests: XCTestCase {
    struct Refused: HTTPError {
        let status = HTTPStatus.unauthorized
        let code: String
        let message = "No."
    }

    /// A router whose `/open` route has no check, whose group needs `X-Key: outer`, and whose nested group also
    /// needs `X-Level: inner`; `seen` records the checks that ran, in order.
    private func makeRouter(_ seen: LockedList) -> Router {
        var router = Router(accessLog: DiscardingAccessLog())
        router.get("/open") { _ in .text("open") }
        router.group({ request in
            seen.append("outer")
            guard request.headers["X-Key"] == "outer" else { throw Refused(code: "outer") }
        }) { outer in
            outer.post("/outer", maxBodyBytes: 8) { request in .text("outer \(request.body.count)") }
            outer.group({ request in
                seen.append("inner \(request.parameters["id"] ?? "-")")
                guard request.headers["X-Level"] == "inner" else { throw Refused(code: "inner") }
            }) { inner in
                inner.get("/inner/{id}") { request in .text("inner \(request.parameters["id"] ?? "")") }
            }
        }
        return router
    }

    func testChecksRunOutermostFirstBeforeTheHandler() async throws {
        let seen = LockedList()
        let router = makeRouter(seen)

        let open = await router.respond(to: Request(method: .GET, target: "/open"))
        XCTAssertEqual(open.bodyText, "open")
        XCTAssertEqual(seen.items, [])

        let noKey = await router.respond(to: Request(method: .GET, target: "/inner/7"))
        XCTAssertEqual(noKey.status, .unauthorized)
        XCTAssertTrue(noKey.bodyText.contains("\"code\":\"outer\""), noKey.bodyText)
        XCTAssertEqual(seen.items, ["outer"], "the inner check does not run once the outer one refuses")

        let noLevel = await router.respond(to: Request(method: .GET, target: "/inner/7", headers: ["X-Key": "outer"]))
        XCTAssertTrue(noLevel.bodyText.contains("\"code\":\"inner\""), noLevel.bodyText)
        XCTAssertEqual(seen.items, ["outer", "outer", "inner 7"], "a check sees the path parameters")

        let both = await router.respond(
            to: Request(method: .GET, target: "/inner/7", headers: ["X-Key": "outer", "X-Level": "inner"]))
        XCTAssertEqual(both.status, .ok)
        XCTAssertEqual(both.bodyText, "inner 7")
    }

    func testTheTransportIsToldToRefuseOnTheHead() {
        let router = makeRouter(LockedList())
        let head = Request(method: .POST, target: "/outer", headers: ["Content-Length": "5"])
        guard case .refuse(let error) = router.decide(head: head) else {
            return XCTFail("expected a refusal on the head, got \(router.decide(head: head))")
        }
        XCTAssertEqual(error.code, "outer")
        let allowed = Request(method: .POST, target: "/outer", headers: ["X-Key": "outer"])
        guard case .accept(let route, _, let maxBodyBytes, _) = router.decide(head: allowed) else {
            return XCTFail("expected the route to accept")
        }
        XCTAssertEqual(route, "/outer")
        XCTAssertEqual(maxBodyBytes, 8)
        guard case .answer(let missing) = router.decide(head: Request(method: .GET, target: "/nowhere")) else {
            return XCTFail("expected a 404 answer")
        }
        XCTAssertEqual(missing.status, .notFound)
    }
}

/// A list several tasks may append to.
final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ item: String) { lock.withLock { storage.append(item) } }
    var items: [String] { lock.withLock { storage } }
}
