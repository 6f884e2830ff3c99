import XCTest

@testable import HTTPRouting

/// The routing memo of `Router.decide(head:)`: the same answers as the router, and bounded.
final class ResolutionCacheTests: XCTestCase {
    func router() -> Router {
        var router = Router(accessLog: DiscardingAccessLog())
        router.get("/artifacts/{sha256}.png") { _ in .text("png") }
        router.put("/api/v1/runs/{runId}") { _ in .text("put") }
        router.get("/{path...}") { _ in .text("file") }
        return router
    }

    func describe(_ resolution: Router.Resolution) -> String {
        switch resolution {
        case .route(let route, let parameters):
            "\(route.method) \(route.pattern.text) \(parameters.sorted { $0.key < $1.key })"
        case .error(let error): "\(error.status.code) \(error.code)"
        }
    }

    func testRememberedAnswersEqualTheRoutersAndRepeatsHitTheMemo() {
        let router = router()
        let cache = ResolutionCache(capacity: 8)
        let requests: [(HTTPMethod, String)] = [
            (.GET, "/artifacts/abc.png"), (.HEAD, "/artifacts/abc.png"), (.PUT, "/api/v1/runs/r%201"),
            (.DELETE, "/api/v1/runs/r1"), (.GET, "/a/../b"), (.GET, "/web/app.js"), (.GET, "/artifacts/abc.png"),
        ]
        for (method, path) in requests + requests {
            XCTAssertEqual(
                describe(cache.resolve(router, method: method, path: path)),
                describe(router.resolve(method: method, path: path)), "\(method) \(path)")
        }
        XCTAssertEqual(cache.count, 6, "each distinct (method, path) once")
        XCTAssertEqual(
            describe(cache.resolve(router, method: .PUT, path: "/api/v1/runs/r%201")),
            "PUT /api/v1/runs/{runId} [(key: \"runId\", value: \"r 1\")]")
    }

    func testItStaysBoundedAndSkipsLongPaths() {
        let router = router()
        let cache = ResolutionCache(capacity: 4, longestPath: 32)
        for n in 0..<50 { _ = cache.resolve(router, method: .GET, path: "/artifacts/\(n).png") }
        XCTAssertLessThanOrEqual(cache.count, 4)
        XCTAssertEqual(
            describe(cache.resolve(router, method: .GET, path: "/" + String(repeating: "x", count: 100))),
            describe(router.resolve(method: .GET, path: "/" + String(repeating: "x", count: 100))))
        XCTAssertLessThanOrEqual(cache.count, 4)
    }
}
