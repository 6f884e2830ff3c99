import FailscopeModel
import FailscopeTesting
import Foundation

@testable import FailscopeStore

/// A fresh store in a temporary folder, removed when the test ends.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}


let referenceDate = Date(timeIntervalSince1970: 1_764_400_000)

func sampleRun(
    id: String = "run-1", project: String = "Shop", branch: String? = "main", startedAt: Date = referenceDate
)
    -> Run
{
    Run(
        id: id, project: project, branch: branch, commit: "abc123", device: "iPhone 15", osVersion: "iOS 17.5",
        ciProvider: "github-actions", ciBuildURL: "https://ci.example/1", ciJob: "ui", startedAt: startedAt)
}

func failingResult(
    suite: String = "LoginTests", name: String = "testWrongPassword", page: String = "LoginPage", line: Int = 40,
    attempt: Int = 1, screenshot: String? = nil
) -> TestResult {
    TestResult(
        suite: suite, name: name, attempt: attempt, status: .failed, startedAt: referenceDate.addingTimeInterval(5),
        duration: 1.5,
        failures: [
            Failure(
                message: "Expected the error label", location: SourceLocation(file: "/src/LoginTests.swift", line: 42),
                page: page, action: "tapLogin()", callSite: SourceLocation(file: "/src/LoginTests.swift", line: line),
                elementFrame: Frame(x: 16, y: 300, width: 361, height: 50))
        ],
        trail: [
            TrailStep(page: "CatalogPage"), TrailStep(page: page),
            TrailStep(
                page: page, action: "tapLogin()", callSite: SourceLocation(file: "/src/LoginTests.swift", line: line)),
        ],
        artifacts: screenshot.map { [ArtifactRef(sha256: $0, kind: .screenshot, byteCount: 100, width: 4, height: 3)] }
            ?? [])
}

func passingResult(suite: String = "LoginTests", name: String = "testLogin", page: String = "LoginPage") -> TestResult {
    TestResult(
        suite: suite, name: name, status: .passed, duration: 0.5,
        trail: [
            TrailStep(page: page, action: "open()", callSite: SourceLocation(file: "/src/LoginTests.swift", line: 10))
        ])
}
