import FailscopeClient
import Foundation

/// `failscope upload`: sends what a reporter spool holds (an earlier run's, another machine's).
enum UploadCommand: Command {
    static let name = "upload"
    static let summary = "Send the runs waiting in a reporter spool to the service."
    static let usage = """
        USAGE: failscope upload [--spool <dir>] [--url <url>] [--token <token>] [--run-id <id>] [--retry-seconds <n>]

        OPTIONS:
          --spool <dir>          The spool folder. (default: .failscope/spool; env FAILSCOPE_SPOOL)
          --url <url>            The service. (env FAILSCOPE_URL)
          --token <token>        An upload token. (env FAILSCOPE_TOKEN)
          --run-id <id>          Send only this run.
          --retry-seconds <n>    How long to retry an unreachable service. (default: 20)

          Every request is idempotent: running it again after a failure or a crash sends only what is
          missing and duplicates nothing. A test whose process crashed before it ended is sent as an
          error result. Files of test processes still running are left to them.
          Exit status: 0 all sent, 2 some left in the spool, 1 nothing sent.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let spool = arguments.spoolPath()
        let url = try arguments.requiredServiceURL()
        let token = arguments.token(else: "FAILSCOPE_TOKEN")
        let runID = arguments.option("run-id")
        let retry = try arguments.retryWindow()
        try arguments.checkAllConsumed()

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
