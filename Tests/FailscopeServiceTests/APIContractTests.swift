import FailscopeModel
import FailscopeTesting
import Foundation
import HTTPServer
import XCTest

/// Every JSON body the API sends or accepts, checked against the schema `openapi.json` gives it: the responses of
/// every operation (the hand-tuned writers of run details and flaky reports included), the request bodies as the
/// reporter encodes them, and every component schema reached at least once.
final class APIContractTests: XCTestCase {
    /// The served document and a checker over it.
    private func checker(_ service: TestService) async throws -> JSONSchemaChecker {
        let response = await service.send(.GET, "/api/v1/openapi.json", token: nil)
        XCTAssertEqual(response.status, .ok)
        return JSONSchemaChecker(document: try JSONValue.parse(try response.bodyBytes()))
    }

    /// Checks `body` against `schema`, failing at the caller's line for each problem.
    private func assertConforms(
        _ body: Data, to schema: JSONValue?, _ what: String, _ checker: inout JSONSchemaChecker,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let schema else { return XCTFail("\(what): the document gives no JSON schema", file: file, line: line) }
        guard let value = try? JSONValue.parse(body) else {
            return XCTFail(
                "\(what): the body is not JSON: \(String(decoding: body, as: UTF8.self))", file: file, line: line)
        }
        for problem in checker.problems(of: value, against: schema) {
            XCTFail("\(what): \(problem)", file: file, line: line)
        }
    }

    /// Checks a response against the schema the document gives its operation (`documented`, the path template) and
    /// status; returns the response.
    @discardableResult
    private func assertDocumented(
        _ response: Response, _ method: HTTPMethod, _ documented: String, _ checker: inout JSONSchemaChecker,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Response {
        let what = "\(method) \(documented) \(response.status.code)"
        let operation = checker.document["paths"]?[documented]?[method.rawValue.lowercased()]
        guard var answer = operation?["responses"]?[String(response.status.code)] else {
            XCTFail("\(what): the status is not documented", file: file, line: line)
            return response
        }
        if let reference = answer["$ref"]?.string, let shared = checker.resolve(reference) { answer = shared }
        XCTAssertEqual(response.headers["Content-Type"], "application/json", what, file: file, line: line)
        assertConforms(
            try response.bodyBytes(), to: answer["content"]?["application/json"]?["schema"], what, &checker,
            file: file, line: line)
        return response
    }

    /// The request body schema of an operation.
    private func requestSchema(_ checker: JSONSchemaChecker, _ method: HTTPMethod, _ documented: String) -> JSONValue? {
        checker.document["paths"]?[documented]?[method.rawValue.lowercased()]?["requestBody"]?["content"]?[
            "application/json"]?["schema"]
    }

    func testEveryBodyMatchesItsSchemaAndEverySchemaIsExercised() async throws {
        let service = try TestService()
        var checker = try await checker(service)
        let encoder = WireCoding.encoder()

        let failingScreen = TestPNG.make(width: 4, height: 3)
        let passingScreen = TestPNG.make(width: 4, height: 3, red: 10)
        let tree = Data(#"{"type":"window","children":[]}"#.utf8)
        for (bytes, type) in [
            (Data(failingScreen), "image/png"), (Data(passingScreen), "image/png"), (tree, "application/json"),
        ] {
            let sha = SHA256.hex(of: [UInt8](bytes))
            try assertDocumented(
                await service.send(.PUT, "/api/v1/artifacts/\(sha)", contentType: type, body: bytes), .PUT,
                "/api/v1/artifacts/{sha256}", &checker)
            try assertDocumented(
                await service.send(.GET, "/api/v1/artifacts/\(sha)"), .GET, "/api/v1/artifacts/{sha256}", &checker)
        }
        let screenshot = ArtifactRef(
            sha256: SHA256.hex(of: failingScreen), kind: .screenshot, byteCount: failingScreen.count, width: 4,
            height: 3)
        let passingScreenshot = ArtifactRef(
            sha256: SHA256.hex(of: passingScreen), kind: .screenshot, byteCount: passingScreen.count, width: 4,
            height: 3)
        let elementTree = ArtifactRef(
            sha256: SHA256.hex(of: [UInt8](tree)), kind: .elementTree, byteCount: tree.count)

        // Two runs on one commit within the flaky window: a test that fails then passes on retry (flaky), one
        // that fails everywhere (broken), a passing test with a screenshot on the failing test's page.
        let now = Date()
        for (index, device) in ["iPhone 15", "iPad"].enumerated() {
            let id = "contract-\(index)"
            let run = Run(
                id: id, project: "Shop", branch: "main", commit: "c1", device: device, osVersion: "17.5",
                ciProvider: "github", ciBuildURL: "https://ci.example/\(index)", ciJob: "ui",
                startedAt: now.addingTimeInterval(Double(index - 2) * 3_600))
            let runBody = try encoder.encode(run)
            assertConforms(runBody, to: requestSchema(checker, .PUT, "/api/v1/runs/{runId}"), "Run", &checker)
            try assertDocumented(
                await service.send(.PUT, "/api/v1/runs/\(id)", body: runBody), .PUT, "/api/v1/runs/{runId}", &checker)

            let failure = Failure(
                message: "Expected the error label", location: SourceLocation(file: "/src/LoginTests.swift", line: 42),
                page: "LoginPage", action: "tapLogin()",
                callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40),
                elementFrame: Frame(x: 16, y: 300.5, width: 361, height: 50))
            let trail = [
                TrailStep(
                    page: "LoginPage", action: "tapLogin()",
                    callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40))
            ]
            // The action trace: the failing attempt's and its passing retry's steps carry their element tree.
            let traced = [
                TrailStep(
                    page: "LoginPage", action: "tapLogin()",
                    callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40), elementTree: elementTree.sha256,
                    target: Frame(x: 16, y: 300.5, width: 361, height: 50), duration: 0.25)
            ]
            let batch = ResultBatch(results: [
                TestResult(
                    suite: "LoginTests", name: "testRetried", device: device, status: .failed,
                    startedAt: run.startedAt.addingTimeInterval(1), duration: 1.25, failures: [failure], trail: traced,
                    artifacts: [screenshot, elementTree], systemOut: "tapped", systemErr: "warning"),
                TestResult(
                    suite: "LoginTests", name: "testRetried", device: device, attempt: 2, status: .passed,
                    startedAt: run.startedAt.addingTimeInterval(3), duration: 0.5, trail: traced,
                    artifacts: [elementTree]),
                TestResult(
                    suite: "LoginTests", name: "testBroken", arguments: "(1, 2)", status: .error,
                    startedAt: run.startedAt.addingTimeInterval(4), failures: [failure], trail: trail),
                TestResult(
                    suite: "LoginTests", name: "testStable", status: .passed, startedAt: run.startedAt, trail: trail,
                    artifacts: [passingScreenshot]),
                TestResult(suite: "LoginTests", name: "testLater", status: .skipped, skipReason: "not on iPad"),
                TestResult(suite: "LoginTests", name: "testKnownBug", status: .expectedFailure),
            ])
            // Both encoders of a batch: the reporter writes it with WireJSONWriter, other clients with WireCoding.
            for (name, body) in [
                ("WireJSONWriter", WireJSONWriter.encode(batch)), ("WireCoding", try encoder.encode(batch)),
            ] {
                assertConforms(
                    body, to: requestSchema(checker, .POST, "/api/v1/runs/{runId}/results"), "ResultBatch (\(name))",
                    &checker)
            }
            try assertDocumented(
                await service.send(.POST, "/api/v1/runs/\(id)/results", body: WireJSONWriter.encode(batch)), .POST,
                "/api/v1/runs/{runId}/results", &checker)

            let finish = try encoder.encode(RunFinish(finishedAt: run.startedAt.addingTimeInterval(60)))
            assertConforms(
                finish, to: requestSchema(checker, .POST, "/api/v1/runs/{runId}/finish"), "RunFinish", &checker)
            try assertDocumented(
                await service.send(.POST, "/api/v1/runs/\(id)/finish", body: finish), .POST,
                "/api/v1/runs/{runId}/finish", &checker)
        }

        try assertDocumented(await service.send(.GET, "/healthz", token: nil), .GET, "/healthz", &checker)
        try assertDocumented(await service.send(.GET, "/api/v1/runs?limit=1"), .GET, "/api/v1/runs", &checker)
        let detail = try assertDocumented(
            await service.send(.GET, "/api/v1/runs/contract-1"), .GET, "/api/v1/runs/{runId}", &checker
        ).decode(RunDetail.self)
        let results = detail.pages.flatMap(\.callSites).flatMap(\.results)
        XCTAssertEqual(results.count, 6)
        for target in ["/api/v1/runs/contract-1?status=failed,error", "/api/v1/runs/contract-1?status=green"] {
            try assertDocumented(await service.send(.GET, target), .GET, "/api/v1/runs/{runId}", &checker)
        }
        for result in results {
            try assertDocumented(
                await service.send(.GET, "/api/v1/results/\(result.id)"), .GET, "/api/v1/results/{resultId}",
                &checker)
            try assertDocumented(
                await service.send(.GET, "/api/v1/tests/\(result.testId)/history?limit=1"), .GET,
                "/api/v1/tests/{testId}/history", &checker)
        }
        let comparison = try assertDocumented(
            await service.send(.GET, "/api/v1/runs/contract-1/compare"), .GET, "/api/v1/runs/{runId}/compare",
            &checker
        ).decode(RunComparison.self)
        XCTAssertEqual(comparison.base?.run.id, "contract-0")
        XCTAssertEqual(comparison.newFailures.map(\.name), ["testBroken"], "the base ran on another device")
        for target in ["/api/v1/runs/contract-1/compare?base=none", "/api/v1/runs/contract-1/compare?base=a&base=b"] {
            try assertDocumented(await service.send(.GET, target), .GET, "/api/v1/runs/{runId}/compare", &checker)
        }
        let runErrors = try assertDocumented(
            await service.send(.GET, "/api/v1/runs/contract-1/errors"), .GET, "/api/v1/runs/{runId}/errors", &checker
        ).decode(RunErrors.self)
        XCTAssertEqual(runErrors.baseRunId, "contract-0")
        // testRetried failed and passed on c1; testBroken's same error was seen in contract-0, where it failed too.
        XCTAssertEqual(runErrors.failures.map(\.result.name), ["testRetried", "testBroken"])
        XCTAssertEqual(runErrors.failures.map(\.verdict), [.likelyFlaky, .known])
        XCTAssertEqual(runErrors.bySignature.map(\.resultIds.count), [2])
        try assertDocumented(await service.send(.GET, "/api/v1/runs/none/errors"), .GET, "/api/v1/runs/{runId}/errors", &checker)
        let errors = try assertDocumented(
            await service.send(.GET, "/api/v1/errors?project=Shop&days=7"), .GET, "/api/v1/errors", &checker
        ).decode(ErrorList.self)
        XCTAssertEqual(errors.errors.map { [$0.tests, $0.runs, $0.failures] }, [[2, 2, 4]])
        XCTAssertEqual(errors.errors.first?.devices, ["iPad", "iPhone 15"])
        try assertDocumented(await service.send(.GET, "/api/v1/errors?days=7"), .GET, "/api/v1/errors", &checker)
        let durations = try assertDocumented(
            await service.send(.GET, "/api/v1/durations?project=Shop&days=7"), .GET, "/api/v1/durations", &checker
        ).decode(DurationReport.self)
        XCTAssertEqual(durations.slowest.map(\.test.name), ["testRetried"])
        XCTAssertEqual(durations.slowest.map(\.p95), [0.5])
        let slowTest = try XCTUnwrap(durations.slowest.first?.test)
        try assertDocumented(
            await service.send(.GET, "/api/v1/tests/\(slowTest.id)/durations?days=7"), .GET,
            "/api/v1/tests/{testId}/durations", &checker)
        try assertDocumented(
            await service.send(.GET, "/api/v1/tests/\(String(repeating: "0", count: 32))/durations"), .GET,
            "/api/v1/tests/{testId}/durations", &checker)
        try assertDocumented(await service.send(.GET, "/api/v1/durations"), .GET, "/api/v1/durations", &checker)
        // Two runs make no regression (10 results on each side): its schema is checked on a value.
        assertConforms(
            try encoder.encode(
                DurationReport(
                    since: now, slowest: [], regressions: [.init(subject: slowTest, previousP50: 0.5, recentP50: 0.9)])),
            to: .object(["$ref": .string("#/components/schemas/DurationReport")]), "DurationReport", &checker)
        // Actions: the passing retries' tapLogin() steps; the failing attempts' (their last step) were cut short.
        let actions = try assertDocumented(
            await service.send(.GET, "/api/v1/durations/actions?project=Shop&days=7"), .GET,
            "/api/v1/durations/actions", &checker
        ).decode(ActionDurationReport.self)
        XCTAssertEqual(actions.slowest.map(\.action.name), ["LoginPage.tapLogin()"])
        XCTAssertEqual(actions.slowest.map(\.count), [2])
        XCTAssertEqual(actions.slowest.map(\.p95), [0.25])
        try assertDocumented(
            await service.send(.GET, "/api/v1/durations/actions"), .GET, "/api/v1/durations/actions", &checker)
        let actionTrend = try assertDocumented(
            await service.send(
                .GET, "/api/v1/durations/actions/trend?project=Shop&page=LoginPage&action=tapLogin()&days=7"), .GET,
            "/api/v1/durations/actions/trend", &checker
        ).decode(ActionDurationTrend.self)
        XCTAssertEqual(actionTrend.days.map(\.count).reduce(0, +), 2)
        try assertDocumented(
            await service.send(.GET, "/api/v1/durations/actions/trend?project=Shop&page=LoginPage"), .GET,
            "/api/v1/durations/actions/trend", &checker)
        assertConforms(
            try encoder.encode(
                ActionDurationReport(
                    since: now, slowest: [],
                    regressions: [.init(subject: actions.slowest[0].action, previousP50: 0.5, recentP50: 0.9)])),
            to: .object(["$ref": .string("#/components/schemas/ActionDurationReport")]), "ActionDurationReport",
            &checker)
        try assertDocumented(
            await service.send(.GET, "/api/v1/pages?project=Shop&days=7"), .GET, "/api/v1/pages", &checker)
        let flaky = try assertDocumented(
            await service.send(.GET, "/api/v1/flaky?project=Shop&days=7"), .GET, "/api/v1/flaky", &checker
        ).decode(FlakyReport.self)
        XCTAssertEqual(flaky.flaky.map(\.name), ["testRetried"])
        XCTAssertEqual(flaky.broken.map(\.name), ["testBroken"])

        // The quarantine: every operation, its bodies as clients encode them, its errors.
        let today = QuarantineEntry.dayText(now)
        let addBody = try encoder.encode(
            QuarantineRequest(
                project: "Shop", suite: "LoginTests", name: "testBroken", arguments: "(1, 2)", page: "LoginPage",
                device: "iPad", owner: "ana", reason: "broken since the redesign", expires: today, actor: "bo"))
        assertConforms(addBody, to: requestSchema(checker, .POST, "/api/v1/quarantine"), "QuarantineRequest", &checker)
        let added = try assertDocumented(
            await service.send(.POST, "/api/v1/quarantine", body: addBody), .POST, "/api/v1/quarantine", &checker
        ).decode(QuarantineEntry.self)
        let editBody = try encoder.encode(
            QuarantineEdit(owner: "bo", reason: "still broken", expires: today, why: "new owner", actor: "carla"))
        assertConforms(
            editBody, to: requestSchema(checker, .PUT, "/api/v1/quarantine/{entryId}"), "QuarantineEdit", &checker)
        try assertDocumented(
            await service.send(.PUT, "/api/v1/quarantine/\(added.id)", body: editBody), .PUT,
            "/api/v1/quarantine/{entryId}", &checker)
        try assertDocumented(
            await service.send(.GET, "/api/v1/quarantine?project=Shop"), .GET, "/api/v1/quarantine", &checker)
        try assertDocumented(
            await service.send(.GET, "/api/v1/quarantine/\(added.id)"), .GET, "/api/v1/quarantine/{entryId}", &checker)
        let liftBody = try encoder.encode(QuarantineLift(why: "fixed", actor: "dan"))
        assertConforms(
            liftBody, to: requestSchema(checker, .POST, "/api/v1/quarantine/{entryId}/lift"), "QuarantineLift",
            &checker)
        let lifted = try assertDocumented(
            await service.send(.POST, "/api/v1/quarantine/\(added.id)/lift", body: liftBody), .POST,
            "/api/v1/quarantine/{entryId}/lift", &checker
        ).decode(QuarantineEntry.self)
        XCTAssertEqual(lifted.changes.map(\.action), [.added, .edited, .lifted])
        try assertDocumented(
            await service.send(.GET, "/api/v1/quarantine?state=all"), .GET, "/api/v1/quarantine", &checker)
        for (method, target, documented, body) in [
            (HTTPMethod.POST, "/api/v1/quarantine", "/api/v1/quarantine", Data("{}".utf8)),
            (.POST, "/api/v1/quarantine/\(added.id)/lift", "/api/v1/quarantine/{entryId}/lift", liftBody),
            (.PUT, "/api/v1/quarantine/99", "/api/v1/quarantine/{entryId}", editBody),
        ] {
            try assertDocumented(await service.send(method, target, body: body), method, documented, &checker)
        }
        try assertDocumented(
            await service.send(.GET, "/api/v1/quarantine?state=some"), .GET, "/api/v1/quarantine", &checker)

        // Errors have one documented shape.
        try assertDocumented(await service.send(.GET, "/api/v1/runs/none"), .GET, "/api/v1/runs/{runId}", &checker)
        try assertDocumented(await service.send(.GET, "/api/v1/runs?limit=0"), .GET, "/api/v1/runs", &checker)
        try assertDocumented(
            await service.send(.PUT, "/api/v1/runs/x", token: "wrong", body: Data("{}".utf8)), .PUT,
            "/api/v1/runs/{runId}", &checker)

        // Webhooks: created (then again: the same one), listed, their delivery log (the finished runs' events), removed.
        let create = try encoder.encode(
            WebhookCreate(url: "https://hooks.example/failscope", secret: "contract-secret-0123"))
        assertConforms(create, to: requestSchema(checker, .POST, "/api/v1/webhooks"), "WebhookCreate", &checker)
        let webhook = try assertDocumented(
            await service.send(.POST, "/api/v1/webhooks", body: create), .POST, "/api/v1/webhooks", &checker
        ).decode(Webhook.self)
        let again = try assertDocumented(
            await service.send(.POST, "/api/v1/webhooks", body: create), .POST, "/api/v1/webhooks", &checker)
        XCTAssertEqual(again.status, .ok)
        try assertDocumented(
            await service.send(
                .POST, "/api/v1/webhooks", body: Data(#"{"url":"ftp://x","secret":"0123456789abcdef"}"#.utf8)),
            .POST, "/api/v1/webhooks", &checker)
        let later = Date().addingTimeInterval(60)
        for claim in try service.store.claimWebhookChecks(
            owner: "contract", now: later, leaseUntil: later.addingTimeInterval(60), limit: 10)
        {
            _ = try service.store.evaluateWebhookCheck(
                runID: claim.runID, requestID: claim.requestID, owner: "contract", now: later
            ) { _ in "{}" }
        }
        try assertDocumented(await service.send(.GET, "/api/v1/webhooks"), .GET, "/api/v1/webhooks", &checker)
        let deliveries = try assertDocumented(
            await service.send(.GET, "/api/v1/webhooks/\(webhook.id)/deliveries"), .GET,
            "/api/v1/webhooks/{webhookId}/deliveries", &checker
        ).decode(WebhookDeliveryList.self)
        XCTAssertEqual(deliveries.deliveries.filter { $0.event == .runFinished }.count, 2)
        try assertDocumented(
            await service.send(.GET, "/api/v1/webhooks/none/deliveries"), .GET,
            "/api/v1/webhooks/{webhookId}/deliveries",
            &checker)
        let deleted = await service.send(.DELETE, "/api/v1/webhooks/\(webhook.id)")
        XCTAssertEqual(deleted.status, .noContent)
        try assertDocumented(
            await service.send(.DELETE, "/api/v1/webhooks/\(webhook.id)"), .DELETE, "/api/v1/webhooks/{webhookId}",
            &checker)
        // What a receiver gets (sent by the worker, which this in-process service does not run).
        let event = WebhookEvent(
            id: "7b0e", type: .testFlaky, createdAt: now, text: "*Shop* <http://x/#/tests/t|LoginTests.testRetried>",
            run: WebhookRun(
                id: "contract-1", project: "Shop", branch: "main", commit: "c1", status: .failed,
                counts: ResultCounts(total: 6, passed: 2, failed: 1, error: 1, skipped: 1, expectedFailure: 1),
                ciBuildURL: "https://ci.example/1", url: "http://x/#/runs/contract-1"),
            test: WebhookTest(
                id: "t", project: "Shop", suite: "LoginTests", name: "testRetried", arguments: "(1, 2)", branch: "main",
                state: .flaky, previousState: .stable, reasons: [.contradiction], url: "http://x/#/tests/t"))
        assertConforms(
            try encoder.encode(event), to: .object(["$ref": .string("#/components/schemas/WebhookEvent")]),
            "WebhookEvent", &checker)

        // An API type no route answers with today is still encoded as its schema says.
        let pageList = PageList(
            since: now,
            pages: [
                PageSummary(page: "LoginPage", resultCount: 5, failureCount: 2, failingTestCount: 1, lastFailureAt: now)
            ])
        assertConforms(
            try encoder.encode(pageList), to: .object(["$ref": .string("#/components/schemas/PageList")]), "PageList",
            &checker)

        let schemas: [String] =
            if case .object(let all)? = checker.document["components"]?["schemas"] { Array(all.keys) } else { [] }
        XCTAssertFalse(schemas.isEmpty)
        XCTAssertEqual(Set(schemas).subtracting(checker.visited).sorted(), [], "schemas no body was checked against")
    }

    /// The checker itself finds what it is for: a member the schema does not list, a missing required member, a
    /// wrong type, a value outside an enumeration, a malformed date.
    func testCheckerReportsDrift() throws {
        let document = try JSONValue.parse(
            Data(
                #"""
                {"components":{"schemas":{"Thing":{"type":"object","required":["id","at"],"properties":{
                  "id":{"type":"integer","minimum":1},"at":{"type":"string","format":"date-time"},
                  "status":{"type":"string","enum":["passed","failed"]},"tags":{"type":"array","maxItems":1,
                  "items":{"type":"string","pattern":"^[a-z]+$"}}}}}}}
                """#.utf8))
        var checker = JSONSchemaChecker(document: document)
        let schema = try XCTUnwrap(document["components"]?["schemas"]?["Thing"])
        let good = try JSONValue.parse(
            Data(#"{"id":2,"at":"2025-11-29T07:06:40.250Z","status":"passed","tags":["a"]}"#.utf8))
        XCTAssertEqual(checker.problems(of: good, against: schema), [])
        let bad = try JSONValue.parse(
            Data(#"{"id":0.5,"at":"29/11/2025","status":"green","tags":["A","b"],"extra":true}"#.utf8))
        XCTAssertEqual(
            checker.problems(of: bad, against: schema),
            [
                "$.at: \"29/11/2025\" is not an RFC 3339 date-time",
                "$: the member extra is not in the schema",
                "$.id: 0.5 is not of type integer",
                "$.status: \"green\" is not one of the enumerated values",
                "$.tags: 2 items, more than 1",
                "$.tags[0]: \"A\" does not match ^[a-z]+$",
            ])
        XCTAssertEqual(
            checker.problems(of: try JSONValue.parse(Data(#"{"at":"2025-11-29T07:06:40Z"}"#.utf8)), against: schema),
            ["$: the required member id is missing"])
        XCTAssertEqual(
            checker.problems(of: .bool(true), against: .object(["type": .string("string"), "oneOf": .array([])])),
            ["$: the schema keyword oneOf is not checked", "$: true is not of type string"])
    }
}
