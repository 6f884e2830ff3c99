import FailscopeClient
import FailscopeImport
import FailscopeModel
import Foundation

/// `failscope export --run ID --format junit`: a run's results as JUnit XML, for a CI's test tab.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "Write a run's results as JUnit XML."
    static let discussion = """
        Every result is a <testcase> (a retry one more, with a 'repetition' property), with its
        failures' messages and locations, its skip reason, its arguments and device as properties:
        `failscope import` reads the file back to the same tests.
        """

    static let runID = SharedOptions.run.help("The run to export.").required()
    static let url = SharedOptions.url.required()
    static let format = Option<String>.choice("format", ["junit"], help: "The format.", default: "junit")
    static let output = Option<String>(
        "output", value: "file", help: "Where to write it.", defaultHelp: "standard output")
    static let options: [any OptionDeclaration] = [runID, url, SharedOptions.readToken, format, output]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let runID = try arguments.required(Self.runID)
        let url = try arguments.required(Self.url)
        let token = try arguments.value(SharedOptions.readToken)
        _ = try arguments.required(Self.format)  // one format today: the option says so and refuses others
        let output = try arguments.value(Self.output)

        let api = APIClient(baseURL: url, token: token)
        let results: [TestResult]
        do {
            results = try await self.results(ofRun: runID, from: api)
        } catch let error as APIClientError {
            throw CommandError(RunsCommand.clean("\(error)"))
        }
        let xml = JUnitWriter.write(results, name: runID)
        try Arguments.write(xml, to: output)
        if let output {
            printError("failscope export: \(results.count) result(s) of run \(RunsCommand.clean(runID)) in \(output)")
        }
        return 0
    }

    /// The run's results in the run view's order, with the failures and skip reasons of those that
    /// have any (`GET /api/v1/runs/{id}`, then `GET /api/v1/results/{id}` for each of those).
    /// `runID` is a valid run id (`Run.isValidID`): it needs no escaping in the path.
    static func results(ofRun runID: String, from api: APIClient) async throws -> [TestResult] {
        let detail = try await api.get(RunDetail.self, "api/v1/runs/\(runID)")
        // In stored order, the attempts of one test one after another (a JUnit retry follows its failure).
        let stored = detail.pages.flatMap(\.callSites).flatMap(\.results).sorted { $0.id < $1.id }
        var firstSeen: [String: Int] = [:]
        for summary in stored where firstSeen["\(summary.testId)|\(summary.device ?? "")"] == nil {
            firstSeen["\(summary.testId)|\(summary.device ?? "")"] = summary.id
        }
        let ordered = stored.sorted {
            let first = (firstSeen["\($0.testId)|\($0.device ?? "")"]!, $0.attempt)
            let second = (firstSeen["\($1.testId)|\($1.device ?? "")"]!, $1.attempt)
            return first < second
        }
        var results: [TestResult] = []
        for summary in ordered {
            var result = TestResult(
                suite: summary.suite, name: summary.name, arguments: summary.arguments, device: summary.device,
                attempt: summary.attempt, status: summary.status, startedAt: summary.startedAt,
                duration: summary.duration)
            if summary.status != .passed && summary.status != .expectedFailure {
                let full = try await api.get(ResultDetail.self, "api/v1/results/\(summary.id)")
                result.failures = full.failures
                result.skipReason = full.skipReason
            }
            results.append(result)
        }
        return results
    }
}
