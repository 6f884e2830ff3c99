import FailscopeClient
import XCTest

final class CIEnvironmentTests: XCTestCase {
    func testEachProviderIsDetectedFromItsVariables() {
        XCTAssertEqual(
            CIEnvironment.detect([
                "GITHUB_ACTIONS": "true", "GITHUB_SHA": "abc", "GITHUB_REF_NAME": "main", "GITHUB_HEAD_REF": "",
                "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/app", "GITHUB_RUN_ID": "42",
                "GITHUB_JOB": "ui-tests",
            ]),
            CIEnvironment(
                provider: "github-actions", commit: "abc", branch: "main",
                buildURL: "https://github.com/acme/app/actions/runs/42", job: "ui-tests"))
        XCTAssertEqual(
            CIEnvironment.detect([
                "GITHUB_ACTIONS": "true", "GITHUB_HEAD_REF": "feature/x", "GITHUB_REF_NAME": "7/merge",
            ]).branch,
            "feature/x", "a pull request's branch is its head")
        XCTAssertEqual(
            CIEnvironment.detect([
                "GITLAB_CI": "true", "CI_COMMIT_SHA": "def", "CI_COMMIT_REF_NAME": "dev",
                "CI_JOB_URL": "https://gl/j/1",
                "CI_JOB_NAME": "test",
            ]),
            CIEnvironment(provider: "gitlab-ci", commit: "def", branch: "dev", buildURL: "https://gl/j/1", job: "test"))
        XCTAssertEqual(
            CIEnvironment.detect(["BUILDKITE": "true", "BUILDKITE_COMMIT": "1", "BUILDKITE_BRANCH": "b"]).provider,
            "buildkite")
        XCTAssertEqual(CIEnvironment.detect(["CIRCLECI": "true", "CIRCLE_SHA1": "2"]).commit, "2")
        XCTAssertEqual(CIEnvironment.detect(["BITRISE_IO": "true", "BITRISE_GIT_BRANCH": "rel"]).branch, "rel")
        XCTAssertEqual(
            CIEnvironment.detect(["JENKINS_URL": "https://j", "GIT_BRANCH": "origin/main", "BUILD_URL": "https://j/1"]),
            CIEnvironment(provider: "jenkins", branch: "main", buildURL: "https://j/1"))
        XCTAssertEqual(CIEnvironment.detect([:]), CIEnvironment())
    }

    func testGitFillsWhatTheEnvironmentDoesNotSay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script =
            "git init -q -b trunk && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x && git rev-parse HEAD"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let commit = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        let filled = CIEnvironment(branch: "from-ci").fillingFromGit(in: folder)
        XCTAssertEqual(filled.commit, commit)
        XCTAssertEqual(filled.commit?.count, 40)
        XCTAssertEqual(filled.branch, "from-ci", "the CI's branch wins over git's")
        XCTAssertEqual(CIEnvironment().fillingFromGit(in: folder).branch, "trunk")
    }
}
