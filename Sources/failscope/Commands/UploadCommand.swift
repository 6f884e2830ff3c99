import FailscopeClient
import Foundation

/// `failscope upload`: sends what a reporter spool holds (an earlier run's, another machine's).
enum UploadCommand: Command {
    static let name = "upload"
    static let summary = "Send the runs waiting in a reporter spool to the service."
    static let discussion = """
        Every request is idempotent: running it again after a failure or a crash sends only what is
        missing and duplicates nothing. A test whose process crashed before it ended is sent as an
        error result. Files of test processes still running are left to them.
        Exit status: 0 all sent, 2 some left in the spool, 1 nothing sent.
        """

    static let runID = SharedOptions.runID.help("Send only this run.")
    static let url = SharedOptions.url.required()
    static let options: [any OptionDeclaration] = [
        SharedOptions.spool, url, SharedOptions.uploadToken, runID, SharedOptions.retrySeconds,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let spool = try arguments.required(SharedOptions.spool)
        let url = try arguments.required(Self.url)
        let token = try arguments.value(SharedOptions.uploadToken)
        let runID = try arguments.value(Self.runID)
        let retry = try arguments.retryWindow()

        let uploader = Uploader(
            api: APIClient(baseURL: url, token: token), spool: Spool(directory: URL(fileURLWithPath: spool)),
            retryWindow: retry)
        let report = await uploader.upload(runID: runID)
        printError(
            "failscope upload: \(report.runs.count) run(s), \(report.results) result(s), "
                + "\(report.artifactsSent) artifact(s) sent, \(report.artifactsSkipped) already on the server, "
                + "\(report.finishedRuns) run(s) finished, \(report.remainingFiles) file(s) left in \(spool)"
                + (report.crashedTests > 0
                    ? "; \(report.crashedTests) test(s) of crashed processes sent as errors" : "")
                + (report.foldersOfRunningProcesses > 0
                    ? "; \(report.foldersOfRunningProcesses) folder(s) left to test processes still running" : ""))
        // Problems quote the service's error messages and the spool's names: untrusted text on a terminal.
        for problem in report.problems { printError("  \(RunsCommand.clean(problem))") }
        if report.remainingFiles == 0 && report.problems.isEmpty { return 0 }
        return report.results + report.artifactsSent + report.finishedRuns > 0 ? 2 : 1
    }
}
