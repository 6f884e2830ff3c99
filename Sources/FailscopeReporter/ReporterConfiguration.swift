import FailscopeClient
import FailscopeModel
import Foundation

/// How the reporter is set up, read from the test process's environment.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `FAILSCOPE_URL` | the service, e.g. `http://127.0.0.1:8080` | none: record to the spool only |
/// | `FAILSCOPE_TOKEN` | upload token (`Authorization: Bearer …`) | none |
/// | `FAILSCOPE_PROJECT` | project name | the working directory's name |
/// | `FAILSCOPE_SPOOL` | spool folder | `.failscope/spool` |
/// | `FAILSCOPE_RUN_ID` | run id shared by several processes or jobs | derived from the `swift test` process |
/// | `FAILSCOPE_DISABLED` | `1`/`true`/`yes` turns the reporter off | off |
/// | `FAILSCOPE_BRANCH`, `FAILSCOPE_COMMIT` | override CI/git detection | detected |
/// | `FAILSCOPE_UPLOAD_RETRY_SECONDS` | how long the bundle end retries an unreachable service | 20 |
/// | `FAILSCOPE_LIVE_SECONDS` | upload results while the tests run, at most this often; `0`: at the end only | 2 |
/// | `FAILSCOPE_QUIET` | `1`: no summary line (`failscope test` prints one for the whole run) | off |
/// | `FAILSCOPE_TRACE` | `always`: passing tests write their action trace too (docs/trace.md) | failing tests and passing retries of failed ones |
public struct ReporterConfiguration: Sendable {
    public var serviceURL: URL?
    public var token: String?
    public var project: String
    public var spoolDirectory: URL
    public var runID: String
    public var isDisabled: Bool
    public var ci: CIEnvironment
    /// Seconds the bundle end keeps retrying the upload before leaving the rest in the spool.
    public var uploadRetrySeconds: Double = 20
    /// The least time between two uploads while the tests run, in seconds; 0: upload at the end only.
    public var liveUploadSeconds: Double = 2
    /// Whether the process prints no summary line (the `failscope test` that started it prints one).
    public var isQuiet = false
    /// Whether passing tests write their action trace too (`FAILSCOPE_TRACE=always`); otherwise only a failing
    /// test and a passing retry of a test that failed in this process do (docs/trace.md).
    public var tracesPassingTests = false

    public init(
        serviceURL: URL?, token: String?, project: String, spoolDirectory: URL, runID: String, isDisabled: Bool = false,
        ci: CIEnvironment = CIEnvironment()
    ) {
        self.serviceURL = serviceURL
        self.token = token
        self.project = project
        self.spoolDirectory = spoolDirectory
        self.runID = runID
        self.isDisabled = isDisabled
        self.ci = ci
    }

    /// Reads the configuration from `environment`; CI metadata from the CI's variables, then git.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        func value(_ key: String) -> String? {
            guard let text = environment[key]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var ci = CIEnvironment.detect(environment)
        if let branch = value("FAILSCOPE_BRANCH") { ci.branch = branch }
        if let commit = value("FAILSCOPE_COMMIT") { ci.commit = commit }
        let disabled = value("FAILSCOPE_DISABLED").map { ["1", "true", "yes"].contains($0.lowercased()) } ?? false
        let spool = value("FAILSCOPE_SPOOL") ?? Spool.defaultPath
        let runID = value("FAILSCOPE_RUN_ID").flatMap { Run.isValidID($0) ? $0 : nil } ?? RunIdentity.derived()
        var configuration = ReporterConfiguration(
            serviceURL: value("FAILSCOPE_URL").flatMap(URL.init(string:)), token: value("FAILSCOPE_TOKEN"),
            project: value("FAILSCOPE_PROJECT") ?? workingDirectory.lastPathComponent,
            spoolDirectory: URL(fileURLWithPath: spool, relativeTo: workingDirectory).standardizedFileURL,
            runID: runID, isDisabled: disabled, ci: disabled ? ci : ci.fillingFromGit())
        configuration.isQuiet = value("FAILSCOPE_QUIET") == "1"
        configuration.tracesPassingTests = value("FAILSCOPE_TRACE")?.lowercased() == "always"
        if let seconds = value("FAILSCOPE_LIVE_SECONDS").flatMap(Double.init), seconds >= 0 {
            configuration.liveUploadSeconds = seconds
        }
        if let seconds = value("FAILSCOPE_UPLOAD_RETRY_SECONDS").flatMap(Double.init), seconds >= 0 {
            configuration.uploadRetrySeconds = seconds
        }
        return configuration
    }
}
