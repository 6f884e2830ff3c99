import FailscopeClient
import FailscopeModel
import Foundation

/// `failscope summary --run ID`: what changed in a run against its base, for a pull request.
enum SummaryCommand: Command {
    static let name = "summary"
    static let summary = "Say what changed in a run against a base run, as Markdown or JSON."
    static let usage = """
        USAGE: failscope summary --run <id> [--url <url>] [--token <token>] [--base-branch <name> | --base <id>]
                                 [--format markdown|json] [--output <file>]

        OPTIONS:
          --run <id>             The run.
          --url <url>            The service. (env FAILSCOPE_URL)
          --token <token>        Read token for the service. (env FAILSCOPE_READ_TOKEN)
          --base-branch <name>   Compare with the newest finished run of this branch, on the merge base
                                 of HEAD and the branch when git knows it. (default: main)
          --base <id>            Compare with this run instead.
          --format <format>      markdown or json (RunComparison). (default: markdown)
          --output <file>        Where to write it. (default: standard output) It is also appended to
                                 $GITHUB_STEP_SUMMARY when that is set.

          New failures, still failing, failed while quarantined (apart: forgiven), flaky (passed on retry) and
          fixed tests, each with its page, call site, screenshot and dashboard links; new and removed tests.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        guard let runID = try arguments.option("run").map({ try Arguments.validRunID($0, option: "run") }) else {
            throw UsageError("--run is required")
        }
        let url = try arguments.requiredServiceURL()
        let token = arguments.token(else: "FAILSCOPE_READ_TOKEN")
        let baseBranch = arguments.option("base-branch")
        let baseRun = arguments.option("base")
        if baseBranch != nil && baseRun != nil { throw UsageError("give --base-branch or --base, not both") }
        let format = arguments.option("format") ?? "markdown"
        guard format == "markdown" || format == "json" else {
            throw UsageError("--format must be markdown or json, got \"\(format)\"")
        }
        let output = arguments.option("output")
        try arguments.checkAllConsumed()

        let api = APIClient(baseURL: url, token: token)
        let comparison: RunComparison
        do {
            comparison = try await compare(runID: runID, api: api, baseBranch: baseBranch ?? "main", baseRun: baseRun)
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
        if let output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CommandError("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
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
