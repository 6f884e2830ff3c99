import FailscopeModel
import FailscopeTesting
import Foundation

/// The package's built products run as child processes: the `failscope` CLI and this test binary
/// itself (to run the sample UI suite as a real XCTest bundle with the reporter on).
extension BuildProducts {
    /// The package's root, for reading test sources.
    static var packageRoot: URL {
        var folder = directory
        while folder.path != "/"
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
        {
            folder.deleteLastPathComponent()
        }
        return folder
    }

    /// The sample UI suite's test case classes, as the XCTest runner's filter takes them.
    static let demoSuite = [
        "LoginTests", "CatalogTests", "ItemTests", "SettingsTests", "PhoneLayoutTests", "TabletLayoutTests",
    ].map { "DemoUITests.\($0)" }.joined(separator: ",")
}

/// The environment of a child: this process's, without any Failscope or demo variable, plus `extra`.
func childEnvironment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("FAILSCOPE_") && !$0.key.hasPrefix("DEMO_")
    }
    environment.merge(extra) { $1 }
    return environment
}

/// `failscope serve` with its own data folder and the reporter tests' upload token.
extension ServeProcess {
    static let uploadToken = "test-upload-token"
    var token: String { Self.uploadToken }

    /// The token that may change the quarantine but not upload.
    static let adminToken = "test-admin-token"
    var adminToken: String { Self.adminToken }

    /// Starts the service on a free port with a child's environment (`childEnvironment`).
    convenience init(dataDirectory: URL) throws {
        try self.init(
            data: dataDirectory, arguments: ["--upload-token", Self.uploadToken, "--admin-token", Self.adminToken],
            environment: childEnvironment([:]))
    }

    /// `GET /api/v1/runs/{runId}`, `nil` when the run is unknown.
    func runDetail(_ runID: String) throws -> RunDetail? {
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-sf", url.appendingPathComponent("api/v1/runs/\(runID)").absoluteString],
            environment: childEnvironment([:]))
        guard result.status == 0 else { return nil }
        return try WireCoding.decoder().decode(RunDetail.self, from: Data(result.standardOutput.utf8))
    }

    /// The run's result counts as the service reports them (`summary.counts`), `nil` when unknown.
    func counts(ofRun runID: String) throws -> [String: Int]? {
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-sf", url.appendingPathComponent("api/v1/runs/\(runID)").absoluteString],
            environment: childEnvironment([:]))
        guard result.status == 0 else { return nil }
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return (json?["summary"] as? [String: Any])?["counts"] as? [String: Int]
    }
}
