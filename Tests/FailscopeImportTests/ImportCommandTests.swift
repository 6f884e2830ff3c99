import FailscopeClient
import FailscopeModel
import FailscopeTesting
import XCTest

/// Runs the built `failscope` binary: `import --dry-run`, then `import` into a live `failscope serve` on a
/// free loopback port, and reads the runs back through the API.
final class ImportCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("reports"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private var spool: URL { folder.appendingPathComponent("spool") }

    private struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        var env = ProcessInfo.processInfo.environment
        env["FAILSCOPE_URL"] = nil
        env["FAILSCOPE_TOKEN"] = nil
        env["FAILSCOPE_SPOOL"] = spool.path  // the import's runs wait here, not in the working directory
        env.merge(environment) { $1 }
        let outcome = try runProcess(BuildProducts.failscope, arguments, environment: env)
        return Outcome(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent("reports").appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func writeReports() throws -> (junit: String, stream: String, broken: String) {
        let junit = try write(
            "ui.xml",
            """
            <testsuites><testsuite name="LoginUITests" timestamp="2026-03-01T10:00:00Z" time="30">
              <testcase classname="LoginUITests" name="testLogin()" time="11"><failure message="LoginUITests.swift:77: tap failed"/></testcase>
              <testcase classname="LoginUITests" name="testLogin()" time="9"/>
              <testcase classname="LoginUITests" name="testLogout()" time="4"><failure message="LoginUITests.swift:90: XCTAssertTrue failed"/></testcase>
              <testcase classname="LoginUITests" name="testSignUp()"><skipped message="later"/></testcase>
            </testsuite></testsuites>
            """)
        let stream = try write(
            "events.jsonl",
            [
                #"{"kind":"event","payload":{"kind":"testStarted","instant":{"absolute":1,"since1970":1764400000},"messages":[],"testID":"App.T/ok()/T.swift:1:1"},"version":0}"#,
                #"{"kind":"event","payload":{"kind":"testEnded","instant":{"absolute":2,"since1970":1764400000.5},"messages":[],"testID":"App.T/ok()/T.swift:1:1"},"version":0}"#,
            ].joined(separator: "\n"))
        let broken = try write("broken.xml", "<testsuites>\n<testsuite name='x'>\n<testcase name='a'")
        return (junit, stream, broken)
    }

    func testDryRunPrintsPerFileAndExitCodesTellPartialSuccess() throws {
        let files = try writeReports()
        let dry = try run(["import", "--project", "Shop", "--dry-run", folder.appendingPathComponent("reports").path])
        XCTAssertEqual(dry.status, 2, dry.stderr)
        XCTAssertTrue(
            dry.stdout.contains(
                "\(files.junit) (junit): 3 tests, 1 failure, 1 skipped, 1 flaky, 0 warnings (4 results with retries)"),
            dry.stdout)
        XCTAssertTrue(dry.stdout.contains("  flaky: LoginUITests/testLogin: failed, passed"), dry.stdout)
        XCTAssertTrue(
            dry.stdout.contains("\(files.stream) (swift-testing-event-stream): 1 test, 0 failures"), dry.stdout)
        XCTAssertTrue(dry.stderr.contains("error: \(files.broken):3:"), dry.stderr)
        XCTAssertTrue(dry.stderr.contains("truncated"), dry.stderr)

        XCTAssertEqual(try run(["import", "--project", "Shop", "--dry-run", files.junit]).status, 0)
        XCTAssertEqual(try run(["import", "--project", "Shop", "--dry-run", files.broken]).status, 1)
        XCTAssertEqual(try run(["import", "--dry-run", files.junit]).status, 64)
        XCTAssertEqual(
            try run(["import", "--project", "Shop", files.junit]).status, 64, "no --url and no FAILSCOPE_URL")
        XCTAssertEqual(
            try run(["import", "--project", "Shop", "--run-id", "a/b", "--dry-run", files.junit]).status, 64)
    }

    func testImportAndTestSayTheSameRunIDRule() throws {
        let files = try writeReports()
        let rule = "--run-id must be 1-64 characters of A-Z a-z 0-9 . _ - (not '.' or '..'), got \"a?b\""
        let imported = try run(["import", "--project", "Shop", "--run-id", "a\u{1B}b", "--dry-run", files.junit])
        XCTAssertEqual(imported.status, 64)
        XCTAssertTrue(imported.stderr.contains(rule), imported.stderr)
        let tested = try run(["test", "--run-id", "a\u{1B}b", "--", "true"])
        XCTAssertEqual(tested.status, 64)
        XCTAssertTrue(tested.stderr.contains(rule), tested.stderr)
    }

    func testUntrustedTextIsPrintedWithoutControlCharacters() throws {
        // A file that retitles the terminal, clears it and claims success; a report whose names and
        // messages carry escapes; a file name with one.
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[32mall tests passed\u{1B}[0m\u{9B}1m\n"
        let text = try write("notes\u{1B}[31m.txt", hostile)
        let junit = try write(
            "escapes.xml",
            """
            <testsuite name="S">
              <testcase classname="S&#x1B;[2J" name="testOne"><failure message="a"/></testcase>
              <testcase classname="S&#x1B;[2J" name="testOne"/>
              <testcase classname="S" name="testTwo&#x1B;]0;x&#x7;"><failure message="b&#x9B;"/></testcase>
              <testcase classname="S" name="\u{1B}[1mbold">
                <properties><property name="device" value="\u{1B}[5miPhone"/></properties></testcase>
              <testcase classname="S" name="\u{1B}[1mbold">
                <properties><property name="device" value="\u{1B}[5miPhone"/></properties></testcase>
            </testsuite>
            """)
        let outcome = try run(["import", "--project", "Shop", "--dry-run", text, junit])
        XCTAssertEqual(outcome.status, 2, outcome.stderr)
        for (stream, output) in [("stdout", outcome.stdout), ("stderr", outcome.stderr)] {
            let controls = output.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
            }
            XCTAssertEqual(controls.map(\.value), [], "\(stream): \(output.debugDescription)")
        }
        XCTAssertTrue(
            outcome.stderr.contains(
                "notes?[31m.txt:1:1: unsupported format: plain text, not XML or JSON (starts with \"?]0;owned??[2J?[32mall tests passed"
            ), outcome.stderr)
        XCTAssertTrue(
            outcome.stdout.contains("(junit): 4 tests, 1 failure, 0 skipped, 1 flaky, 2 warnings"), outcome.stdout)
        XCTAssertTrue(outcome.stdout.contains("  flaky: S?[2J/testOne: failed, passed"), outcome.stdout)
        XCTAssertTrue(
            outcome.stdout.contains("  warning: 1 <testcase> element repeats a test after it passed") == true
                && outcome.stdout.contains("S/?[1mbold on ?[5miPhone)"), outcome.stdout)
    }

    func testImportIntoALiveServiceIsIdempotent() async throws {
        let files = try writeReports()
        let server = try ServeProcess(
            data: folder.appendingPathComponent("data"), arguments: ["--upload-token", "up-secret"])
        defer { server.stop() }
        let url = server.url.absoluteString
        let environment = ["FAILSCOPE_URL": url, "FAILSCOPE_TOKEN": "up-secret"]

        let first = try run(
            ["import", "--project", "Shop", "--branch", "main", files.junit, files.stream, files.broken],
            environment: environment)
        XCTAssertEqual(first.status, 2, first.stderr)
        let ids = first.stdout.split(separator: "\n").filter { $0.hasPrefix("imported ") }.compactMap {
            $0.components(separatedBy: " as run ").last?.components(separatedBy: ":").first
        }
        XCTAssertEqual(ids.count, 2, first.stdout)
        let client = APIClient(baseURL: URL(string: url)!, token: "up-secret")
        let detail = try await client.get(RunDetail.self, "api/v1/runs/\(ids[0])")
        XCTAssertEqual(detail.summary.run.project, "Shop")
        XCTAssertEqual(detail.summary.run.branch, "main")
        XCTAssertEqual(detail.summary.run.source, .junit)
        XCTAssertEqual(detail.summary.status, .failed)
        XCTAssertEqual(detail.summary.counts.total, 4)
        XCTAssertEqual(detail.summary.counts.failingTests, 1)
        XCTAssertEqual(detail.summary.counts.skipped, 1)
        let results = detail.pages.flatMap(\.callSites).flatMap(\.results)
        XCTAssertEqual(results.first { $0.name == "testLogout" }?.message, "XCTAssertTrue failed")
        XCTAssertNil(results.first { $0.name == "testSignUp" }?.duration)

        // The same file again: the same run, nothing added.
        let again = try run(["import", "--project", "Shop", "--branch", "main", files.junit], environment: environment)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("as run \(ids[0])"), again.stdout)
        let rereadTotal = try await client.get(RunDetail.self, "api/v1/runs/\(ids[0])").summary.counts.total
        XCTAssertEqual(rereadTotal, 4)

        // Two files into one run.
        let merged = try run(
            ["import", "--project", "Shop", "--run-id", "ci-42", files.junit, files.stream], environment: environment)
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let mergedTotal = try await client.get(RunDetail.self, "api/v1/runs/ci-42").summary.counts.total
        XCTAssertEqual(mergedTotal, 5)

        // A wrong token: nothing imported, the service's answer said.
        let refused = try run(
            ["import", "--project", "Shop", "--token", "wrong", files.junit], environment: ["FAILSCOPE_URL": url])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("401"), refused.stderr)
    }

    func testRunsAndFlakyReadAServiceUnderTheOneURLRule() throws {
        let files = try writeReports()
        let server = try ServeProcess(
            data: folder.appendingPathComponent("data"), arguments: ["--upload-token", "up-secret"])
        defer { server.stop() }
        let url = server.url.absoluteString
        let imported = try run(
            ["import", "--project", "Shop", "--run-id", "ci-7", "--url", url, "--token", "up-secret", files.junit])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for option in ["--url", "--server"] {  // --server: the older spelling
            let listed = try run(["runs", option, url, "--json"])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            let list = try WireCoding.decoder().decode(RunList.self, from: Data(listed.stdout.utf8))
            XCTAssertEqual(list.runs.map(\.run.id), ["ci-7"])
        }
        let flaky = try run(["flaky", "--json"], environment: ["FAILSCOPE_URL": url])
        XCTAssertEqual(flaky.status, 0, flaky.stderr)
        XCTAssertEqual(try WireCoding.decoder().decode(FlakyReport.self, from: Data(flaky.stdout.utf8)).flaky.count, 0)
        for command in [["runs", "--url", "ftp://x\u{1B}"], ["flaky", "--url", "ftp://x\u{1B}"]] {
            let refused = try run(command)
            XCTAssertEqual(refused.status, 64, command.joined(separator: " "))
            XCTAssertTrue(refused.stderr.contains("--url must be an http(s) URL, got \"ftp://x?\""), refused.stderr)
        }
    }

    func testImportToAServiceThatIsDownStaysInTheSpoolForFailscopeUpload() async throws {
        let files = try writeReports()
        // Port 1 on loopback: nothing listens, the connection is refused.
        let down = try run(
            ["import", "--project", "Shop", "--url", "http://127.0.0.1:1", "--retry-seconds", "0", files.junit])
        XCTAssertEqual(down.status, 1, down.stderr)
        XCTAssertTrue(down.stderr.contains("cannot reach the service"), down.stderr)
        XCTAssertTrue(down.stderr.contains("stays in \(spool.path) for failscope upload"), down.stderr)
        XCTAssertFalse(down.stdout.contains("imported "), down.stdout)
        let pending = try Spool(directory: spool).pendingRuns()
        XCTAssertEqual(pending.count, 1)
        let runID = try XCTUnwrap(pending.first?.runID)
        XCTAssertEqual(try Spool(directory: spool).results(ofRun: runID).count, 4)

        let server = try ServeProcess(
            data: folder.appendingPathComponent("data"), arguments: ["--upload-token", "up-secret"])
        defer { server.stop() }
        let url = server.url.absoluteString
        let upload = ["upload", "--spool", spool.path, "--url", url, "--token", "up-secret"]
        let sent = try run(upload)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stderr.contains("1 run(s), 4 result(s)"), sent.stderr)
        XCTAssertTrue(sent.stderr.contains("1 run(s) finished, 0 file(s) left"), sent.stderr)
        XCTAssertEqual(try Spool(directory: spool).pendingRuns().count, 0, "delivered: the spool is empty")

        // Once: a second upload finds nothing, and the service holds the run's four results once.
        let again = try run(upload)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("0 run(s), 0 result(s)"), again.stderr)
        let detail = try await APIClient(baseURL: URL(string: url)!, token: "up-secret")
            .get(RunDetail.self, "api/v1/runs/\(runID)")
        XCTAssertEqual(detail.summary.run.project, "Shop")
        XCTAssertEqual(detail.summary.counts.total, 4)
        XCTAssertNotNil(detail.summary.run.finishedAt, "the run's finish arrived with it")
    }
}
