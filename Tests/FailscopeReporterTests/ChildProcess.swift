import FailscopeModel
import Foundation

/// Runs the package's built products as child processes: the `failscope` CLI and this test
/// binary itself (to run the sample UI suite as a real XCTest bundle with the reporter on).
enum BuildProducts {
    /// The folder of the test binary: `.build/<triple>/debug`.
    static var directory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }
    static var testBinary: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath() }
    static var failscope: URL { directory.appendingPathComponent("failscope") }
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

/// A finished child process's exit status and output.
struct ProcessOutput {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// The environment of a child: this process's, without any Failscope or demo variable, plus `extra`.
func childEnvironment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("FAILSCOPE_") && !$0.key.hasPrefix("DEMO_")
    }
    environment.merge(extra) { $1 }
    return environment
}

/// Runs `executable` to its end.
func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes to their end concurrently so neither child write blocks.
    let errorData = DataBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { errorData.data = error.fileHandleForReading.readDataToEndOfFile() }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessOutput(
        status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData.data, as: UTF8.self))
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// `failscope serve` on a free loopback port with its own data folder, for as long as a test needs.
final class ServiceProcess: @unchecked Sendable {
    let dataDirectory: URL
    let token = "test-upload-token"
    /// The token that may change the quarantine but not upload.
    let adminToken = "test-admin-token"
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
            token, "--admin-token", adminToken,
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
