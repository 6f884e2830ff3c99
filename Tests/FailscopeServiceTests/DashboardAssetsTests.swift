import FailscopeService
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

final class DashboardAssetsTests: XCTestCase {
    func testDashboardFilesCarryAStrictContentSecurityPolicy() async throws {
        let web = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: web) }
        try Data("<!doctype html><title>Failscope</title>".utf8).write(to: web.appendingPathComponent("index.html"))
        try Data("export {};".utf8).write(to: web.appendingPathComponent("app.js"))
        let service = try TestService(webDirectory: web)
        for path in ["/", "/app.js"] {
            let response = await service.send(.GET, path, token: nil)
            XCTAssertEqual(response.status, .ok, path)
            let policy = try XCTUnwrap(response.headers["Content-Security-Policy"], path)
            XCTAssertTrue(policy.contains("script-src 'self'"), policy)
            XCTAssertTrue(policy.contains("default-src 'none'"), policy)
            XCTAssertFalse(policy.contains("unsafe-inline"), policy)
            XCTAssertFalse(policy.contains("unsafe-eval"), policy)
            XCTAssertEqual(response.headers["X-Frame-Options"], "DENY")
        }
    }

    func testChartJSIsServedFromTheFirstBundleFoundAndIsA404WhenAbsent() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("failscope-chart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var router = Router(accessLog: InMemoryAccessLog())
        router.get("/vendor/chart.js", DashboardAssets.chartJS(directory: folder.path))

        let absent = await router.respond(to: Request(method: .GET, target: "/vendor/chart.js"))
        XCTAssertEqual(absent.status, .notFound)

        try Data("/* chart 3 */".utf8).write(to: folder.appendingPathComponent("chart.min.js"))
        let three = await router.respond(to: Request(method: .GET, target: "/vendor/chart.js"))
        XCTAssertEqual(three.status, .ok)
        XCTAssertEqual(String(decoding: try three.bodyBytes(), as: UTF8.self), "/* chart 3 */")
        XCTAssertEqual(three.headers["Content-Type"], "text/javascript; charset=utf-8")

        try Data("/* chart 4 */".utf8).write(to: folder.appendingPathComponent("chart.umd.js"))
        let four = await router.respond(to: Request(method: .GET, target: "/vendor/chart.js"))
        XCTAssertEqual(String(decoding: try four.bodyBytes(), as: UTF8.self), "/* chart 4 */")
    }
}
