import FailscopeClient
import FailscopeModel
import Foundation

/// `failscope summary --run ID`: what changed in a run against its base, for a pull request.
enum SummaryCommand: Command {
    static let name = "summary"
    static let summary = "Say what changed in a run against a base run, as Markdown or JSON."
    static let discussion = """
        New failures, still failing, failed while quarantined (apart: forgiven), flaky (passed on retry) and
        fixed tests, each with its page, call site, screenshot and dashboard links; new and removed tests.
        """

    static let runID = SharedOptions.run.required()
    static let url = SharedOptions.url.required()
    /// `--base-branch`: also `failscope test --summary`'s base.
    static let baseBranch = Option<String>(
        "base-branch", value: "name",
        help: "Compare with the newest finished run of this branch, on the merge base of HEAD and the branch "
            + "when git knows it.", default: "main")
    static let base = Option<String>("base", value: "id", help: "Compare with this run instead of --base-branch.")
    static let format = Option<String>.choice(
        "format", value: "format", ["markdown", "json"], help: "markdown or json (RunComparison).", default: "markdown")
    static let output = Option<String>(
        "output", value: "file",
        help: "Where to write it; it is also appended to $GITHUB_STEP_SUMMARY when that is set.",
        defaultHelp: "standard output")
    static let options: [any OptionDeclaration] = [
        runID, url, SharedOptions.readToken, baseBranch, base, format, output,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let runID = try arguments.required(Self.runID)
        let url = try arguments.required(Self.url)
        let token = try arguments.value(SharedOptions.readToken)
        let baseRun = try arguments.value(Self.base)
        if arguments.isGiven(Self.baseBranch) && baseRun != nil {
            throw UsageError("give --base-branch or --base, not both")
        }
        let baseBranch = try arguments.required(Self.baseBranch)
        let format = try arguments.required(Self.format)
        let output = try arguments.value(Self.output)

        let api = APIClient(baseURL: url, token: token)
        let comparison: RunComparison
        do {
            comparison = try await compare(runID: runID, api: api, baseBranch: baseBranch, baseRun: baseRun)
        } catch let error as APIClientError {
            throw CommandError(RunsCommand.clean("\(error)"))
        }
        let text =
            format == "json"
            ? String(decoding: try WireCoding.encoder().encode(comparison), as: UTF8.self) + "\n"
            : PullRequestSummary(comparison: comparison, serviceURL: url).markdown
        try write(text, to: output)
        return 0
    }

    /// Writes `text` to `output` (or standard output), and appends it to `$GITHUB_STEP_SUMMARY` when
    /// that is set (GitHub Actions shows that file on the job's page).
    static func write(_ text: String, to output: String?) throws {
        try Arguments.write(Data(text.utf8), to: output)
        guard let stepSummary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !stepSummary.isEmpty
        else { return }
        guard let handle = FileHandle(forWritingAtPath: stepSummary) else {
            throw CommandError("cannot append to GITHUB_STEP_SUMMARY (\(stepSummary))")
        }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
    }

    /// The comparison of run `runID` (a valid run id) with `baseRun`, or with the newest finished run of `baseBranch`
    /// (other than the run; on the merge base of HEAD and the branch when git knows it and a run of
    /// that commit exists), as the service's `GET /api/v1/runs/{runId}/compare` gives it.
    static func compare(runID: String, api: APIClient, baseBranch: String, baseRun: String?) async throws
        -> RunComparison
    {
        var query: [String: String] = [:]
        if let baseRun {
            query["base"] = baseRun
        } else {
            query["baseBranch"] = baseBranch
            query["baseCommit"] = mergeBaseCommit(with: baseBranch)
        }
        return try await api.get(RunComparison.self, "api/v1/runs/\(runID)/compare", query: query)
    }

    /// `git merge-base HEAD <branch>` (or `origin/<branch>`), when the working directory is a git
    /// checkout that has the branch.
    static func mergeBaseCommit(with branch: String) -> String? {
        for candidate in [branch, "origin/\(branch)"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "merge-base", "HEAD", candidate]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if process.terminationStatus == 0 {
                let commit = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !commit.isEmpty { return commit }
            }
        }
        return nil
    }
}
