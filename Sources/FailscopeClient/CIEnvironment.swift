import Foundation

/// What a CI job tells about itself through its environment: provider, commit, branch, build URL
/// and job name. Falls back to `git` in the working directory for commit and branch.
///
/// Variables read (from each provider's documentation):
/// - GitHub Actions: `GITHUB_ACTIONS`, `GITHUB_SHA`, `GITHUB_HEAD_REF` / `GITHUB_REF_NAME`,
///   `GITHUB_SERVER_URL`/`GITHUB_REPOSITORY`/actions/runs/`GITHUB_RUN_ID`, `GITHUB_JOB`
/// - GitLab CI: `GITLAB_CI`, `CI_COMMIT_SHA`, `CI_COMMIT_REF_NAME`, `CI_JOB_URL`, `CI_JOB_NAME`
/// - Buildkite: `BUILDKITE`, `BUILDKITE_COMMIT`, `BUILDKITE_BRANCH`, `BUILDKITE_BUILD_URL`, `BUILDKITE_LABEL`
/// - CircleCI: `CIRCLECI`, `CIRCLE_SHA1`, `CIRCLE_BRANCH`, `CIRCLE_BUILD_URL`, `CIRCLE_JOB`
/// - Bitrise: `BITRISE_IO`, `BITRISE_GIT_COMMIT`, `BITRISE_GIT_BRANCH`, `BITRISE_BUILD_URL`, `BITRISE_TRIGGERED_WORKFLOW_ID`
/// - Jenkins: `JENKINS_URL`, `GIT_COMMIT`, `BRANCH_NAME` / `GIT_BRANCH`, `BUILD_URL`, `JOB_NAME`
public struct CIEnvironment: Sendable, Equatable {
    public var provider: String?
    public var commit: String?
    public var branch: String?
    public var buildURL: String?
    public var job: String?

    public init(
        provider: String? = nil, commit: String? = nil, branch: String? = nil, buildURL: String? = nil,
        job: String? = nil
    ) {
        self.provider = provider
        self.commit = commit
        self.branch = branch
        self.buildURL = buildURL
        self.job = job
    }

    /// Detects the CI provider from `environment`; `nil` fields when it tells nothing.
    public static func detect(_ environment: [String: String]) -> CIEnvironment {
        func value(_ key: String) -> String? {
            guard let text = environment[key]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        if value("GITHUB_ACTIONS") != nil {
            var url: String?
            if let server = value("GITHUB_SERVER_URL"), let repository = value("GITHUB_REPOSITORY"),
                let id = value("GITHUB_RUN_ID")
            {
                url = "\(server)/\(repository)/actions/runs/\(id)"
            }
            return CIEnvironment(
                provider: "github-actions", commit: value("GITHUB_SHA"),
                branch: value("GITHUB_HEAD_REF") ?? value("GITHUB_REF_NAME"), buildURL: url, job: value("GITHUB_JOB"))
        }
        if value("GITLAB_CI") != nil {
            return CIEnvironment(
                provider: "gitlab-ci", commit: value("CI_COMMIT_SHA"), branch: value("CI_COMMIT_REF_NAME"),
                buildURL: value("CI_JOB_URL"), job: value("CI_JOB_NAME"))
        }
        if value("BUILDKITE") != nil {
            return CIEnvironment(
                provider: "buildkite", commit: value("BUILDKITE_COMMIT"), branch: value("BUILDKITE_BRANCH"),
                buildURL: value("BUILDKITE_BUILD_URL"), job: value("BUILDKITE_LABEL"))
        }
        if value("CIRCLECI") != nil {
            return CIEnvironment(
                provider: "circleci", commit: value("CIRCLE_SHA1"), branch: value("CIRCLE_BRANCH"),
                buildURL: value("CIRCLE_BUILD_URL"), job: value("CIRCLE_JOB"))
        }
        if value("BITRISE_IO") != nil {
            return CIEnvironment(
                provider: "bitrise", commit: value("BITRISE_GIT_COMMIT"), branch: value("BITRISE_GIT_BRANCH"),
                buildURL: value("BITRISE_BUILD_URL"), job: value("BITRISE_TRIGGERED_WORKFLOW_ID"))
        }
        if value("JENKINS_URL") != nil {
            var branch = value("BRANCH_NAME") ?? value("GIT_BRANCH")
            if let name = branch, name.hasPrefix("origin/") { branch = String(name.dropFirst("origin/".count)) }
            return CIEnvironment(
                provider: "jenkins", commit: value("GIT_COMMIT"), branch: branch, buildURL: value("BUILD_URL"),
                job: value("JOB_NAME"))
        }
        return CIEnvironment()
    }

    /// Fills a missing commit and branch from `git` in `directory` (silently nothing when git or a
    /// repository is missing).
    public func fillingFromGit(in directory: URL? = nil) -> CIEnvironment {
        var filled = self
        if filled.commit == nil { filled.commit = Self.git(["rev-parse", "HEAD"], in: directory) }
        if filled.branch == nil {
            let branch = Self.git(["rev-parse", "--abbrev-ref", "HEAD"], in: directory)
            filled.branch = branch == "HEAD" ? nil : branch
        }
        return filled
    }

    private static func git(_ arguments: [String], in directory: URL?) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
