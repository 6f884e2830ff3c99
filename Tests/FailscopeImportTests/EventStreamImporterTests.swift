import FailscopeModel
import XCTest

@testable import FailscopeImport

final class EventStreamImporterTests: XCTestCase {
    private func event(
        _ kind: String, _ testID: String?, at time: Double, case argument: String? = nil, extra: String = ""
    ) -> String {
        var payload = "\"kind\":\"\(kind)\",\"instant\":{\"absolute\":1,\"since1970\":\(time)},\"messages\":[]"
        if let testID { payload += ",\"testID\":\"\(testID)\"" }
        if let argument { payload += ",\"_testCase\":{\"displayName\":\"\(argument)\",\"id\":\"case-\(argument)\"}" }
        if !extra.isEmpty { payload += "," + extra }
        return "{\"kind\":\"event\",\"payload\":{\(payload)},\"version\":0}"
    }

    private let suiteRecord =
        #"{"kind":"test","payload":{"id":"App.LoginTests","kind":"suite","name":"LoginTests"},"version":0}"#
    private let plainRecord =
        #"{"kind":"test","payload":{"id":"App.LoginTests/login()/LoginTests.swift:4:3","kind":"function","name":"login()","displayName":"Logs in","isParameterized":false},"version":0}"#
    private let paramRecord =
        #"{"kind":"test","payload":{"id":"App.LoginTests/role(_:)/LoginTests.swift:9:3","kind":"function","name":"role(_:)","isParameterized":true},"version":0}"#

    func testRecordsOutOfOrderGiveOneResultPerTestAndCase() {
        let loginID = "App.LoginTests/login()/LoginTests.swift:4:3"
        let role = "App.LoginTests/role(_:)/LoginTests.swift:9:3"
        let issue =
            #""issue":{"isKnown":false,"_severity":"error","sourceLocation":{"_filePath":"\/src\/LoginTests.swift","fileID":"App\/LoginTests.swift","line":12,"column":5}}"#
        let lines = [
            event("testEnded", loginID, at: 10.5),
            event("testCaseEnded", role, at: 11.25, case: "\\\"b\\\""),
            suiteRecord, plainRecord, paramRecord,
            event("runStarted", nil, at: 10.0),
            event("testStarted", loginID, at: 10.25),
            event("issueRecorded", role, at: 11.2, case: "\\\"b\\\"", extra: issue),
            event("testCaseStarted", role, at: 11.0, case: "\\\"b\\\""),
            event("testCaseStarted", role, at: 11.0, case: "\\\"a\\\""),
            event("testCaseEnded", role, at: 11.5, case: "\\\"a\\\""),
            event("testStarted", "App.LoginTests", at: 10.0),
            event("testEnded", "App.LoginTests", at: 12.0),
            event("runEnded", nil, at: 12.0),
        ]
        let report = EventStreamImporter().parse(data: Data(lines.joined(separator: "\n").utf8))
        XCTAssertEqual(report.summary.tests, 3)
        XCTAssertEqual(report.summary.failures, 1)
        let login = report.results.first { $0.name == "login()" }
        XCTAssertEqual(login?.suite, "LoginTests", "the module is not part of the suite, as the reporter names it")
        XCTAssertEqual(login?.status, .passed)
        XCTAssertEqual(login?.duration ?? 0, 0.25, accuracy: 1e-9)
        // The case's display name gets the function's labels, as the reporter writes arguments.
        let b = report.results.first { $0.arguments == "_: \"b\"" }
        XCTAssertEqual(b?.status, .failed)
        XCTAssertEqual(b?.failures.first?.location, SourceLocation(file: "/src/LoginTests.swift", line: 12))
        XCTAssertEqual(report.results.first { $0.arguments == "_: \"a\"" }?.status, .passed)
        XCTAssertEqual(report.duration, 2.0)
        XCTAssertEqual(report.startedAt, Date(timeIntervalSince1970: 10))
    }

    func testWarningsAndKnownIssuesDoNotFail() {
        let id = "App.T/t()/T.swift:1:1"
        let lines = [
            event("testStarted", id, at: 1),
            event("issueRecorded", id, at: 1.1, extra: #""issue":{"isKnown":false,"_severity":"warning"}"#),
            event("testEnded", id, at: 2),
            event("issueRecorded", "App.T/k()/T.swift:5:1", at: 3, extra: #""issue":{"isKnown":true}"#),
            event("testSkipped", "App.T/s()/T.swift:9:1", at: 4, extra: #""comments":["needs a device"]"#),
        ]
        let report = EventStreamImporter().parse(data: Data(lines.joined(separator: "\n").utf8))
        XCTAssertEqual(report.results.first { $0.name == "t()" }?.status, .passed)
        XCTAssertEqual(report.results.first { $0.name == "k()" }?.status, .expectedFailure)
        XCTAssertEqual(report.results.first { $0.name == "s()" }?.status, .skipped)
        XCTAssertEqual(report.results.first { $0.name == "s()" }?.skipReason, "needs a device")
    }

    func testBadLinesAreSkippedAndSaid() {
        let id = "App.T/t()/T.swift:1:1"
        let text = [
            event("testStarted", id, at: 1), "{not json", event("testEnded", id, at: 2), "{\"kind\":\"event\",\"payl",
        ].joined(separator: "\n")
        let report = EventStreamImporter().parse(data: Data(text.utf8))
        XCTAssertEqual(report.summary.tests, 1)
        XCTAssertTrue(report.warnings.contains { $0.contains("skipped 2 lines") && $0.contains("line 2") })
    }

    func testDeclarationsWithoutEventsAreSuspicious() {
        let report = EventStreamImporter().parse(data: Data([suiteRecord, plainRecord].joined(separator: "\n").utf8))
        XCTAssertTrue(report.isSuspicious)
        XCTAssertTrue(report.warnings.contains { $0.contains("1 test is declared") })
    }

    func testIDSplitting() {
        XCTAssertEqual(EventStreamBuilder.split("Mod.Outer/Inner/f()/F.swift:3:4").suite, "Outer.Inner")
        XCTAssertEqual(EventStreamBuilder.split("Mod.Outer/Inner/f()/F.swift:3:4").name, "f()")
        XCTAssertEqual(EventStreamBuilder.split("Mod/free()/F.swift:3:4").suite, "Mod")
        // Swift Testing writes a free function's id as `Module.function()/File.swift:line:column`: its suite
        // is its module, as the reporter's trait names it.
        XCTAssertEqual(EventStreamBuilder.split("MyLibTests.tracedFree()/TraitTests.swift:12:2").suite, "MyLibTests")
        XCTAssertEqual(EventStreamBuilder.split("MyLibTests.tracedFree()/TraitTests.swift:12:2").name, "tracedFree()")
        XCTAssertEqual(EventStreamBuilder.split("M.scale(by:)/F.swift:1:1").name, "scale(by:)")
    }
}
