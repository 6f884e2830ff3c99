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

/// `failscope serve` on a free loopback port with its own data folder, for as long as a test needs.
final class ServiceProcess: @unchecked Sendable {
    let dataDirectory: URL
    let token = "test-upload-token"
    private(set) var port = 0
    private let process = Process()
    private let lock = NSLock()
    private var log = ""
    private let ready = DispatchSemaphore(value: 0)

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts the service and waits (at most 30 s) for its "listening on" line.
    init(dataDirectory: URL, port: Int = 0) throws {
        self.dataDirectory = dataDirectory
        process.executableURL = BuildProducts.failscope
        process.arguments = [
            "serve", "--host", "127.0.0.1", "--port", String(port), "--data", dataDirectory.path, "--upload-token",
            token,
        ]
        process.environment = childEnvironment([:])
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        error.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock {
                let wasReady = self.port != 0
                self.log += String(decoding: data, as: UTF8.self)
                if !wasReady,
                    let range = self.log.range(
                        of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression)
                {
                    self.port = Int(self.log[range].split(separator: ":").last!) ?? 0
                    self.ready.signal()
                }
            }
        }
        try process.run()
        guard ready.wait(timeout: .now() + 30) == .success else {
            process.terminate()
            throw NSError(
                domain: "ServiceProcess", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "no 'listening on' line: \(output)"])
        }
    }

    var output: String { lock.withLock { log } }

    /// Stops it: SIGTERM (graceful) or SIGKILL (a crash), and waits for the exit.
    func stop(kill: Bool = false) {
        guard process.isRunning else { return }
        if kill { Foundation.kill(process.processIdentifier, SIGKILL) } else { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop(kill: true) }

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
