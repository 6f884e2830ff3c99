import FailscopeObjectStore
import FailscopeStore
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The S3-compatible server `scripts/with-s3.sh` started (SeaweedFS on loopback; `make test` and `.ci/run` run the
/// tests through it): its bucket URL and the AWS variables. Without it a test is skipped with one line, except
/// in CI (`CI=true`), where it fails: the object storage tests never skip there.
struct S3TestServer {
    /// `s3://bucket/prefix` of the server's bucket.
    let url: String
    let environment: [String: String]

    init(file: StaticString = #filePath, line: UInt = #line) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["FAILSCOPE_TEST_S3_URL"], !url.isEmpty else {
            if environment["CI"] == "true" {
                XCTFail(
                    "CI=true but FAILSCOPE_TEST_S3_URL is not set: run the tests through make test", file: file,
                    line: line)
            }
            throw XCTSkip(
                "object storage tests skipped: set FAILSCOPE_TEST_S3_URL (scripts/with-s3.sh starts a server)")
        }
        self.url = url
        self.environment = environment
    }

    /// A configuration for a prefix of its own under the test bucket, with `changes` to the environment.
    func configuration(_ changes: [String: String] = [:], bucket: String? = nil) throws -> S3Configuration {
        var location = url + "/" + UUID().uuidString.lowercased()
        if let bucket { location = "s3://\(bucket)/tests" }
        var configuration = try S3Configuration(
            location: location, environment: environment.merging(changes) { $1 })
        configuration.connectTimeout = 2
        configuration.requestTimeout = 5
        return configuration
    }

    /// A storage on a prefix of its own, with a cache in a temporary folder.
    func storage(_ changes: [String: String] = [:], bucket: String? = nil, cacheBytes: Int = 1 << 20) throws
        -> S3ArtifactStorage
    {
        try S3ArtifactStorage(
            configuration: try configuration(changes, bucket: bucket),
            cacheDirectory: FileManager.default.temporaryDirectory.appendingPathComponent(
                "s3-cache-\(UUID().uuidString)"),
            cacheBytes: cacheBytes)
    }

    /// Kills the server (`start`: and starts it again on the same ports and data), through the script's helper.
    func restart(start: Bool) throws {
        guard let script = environment["FAILSCOPE_TEST_S3_RESTART"] else {
            throw XCTSkip("FAILSCOPE_TEST_S3_RESTART is not set: the server cannot be restarted")
        }
        // posix_spawn and waitpid: Foundation's Process.waitUntilExit never returns inside an async test on Linux.
        let arguments = [script] + (start ? ["start"] : [])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        guard posix_spawn(&child, script, nil, nil, &argv, environ) == 0 else {
            throw XCTSkip("cannot run \(script)")
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    }
}

func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-s3-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Waits until `condition` holds, polling every 100 ms, for at most `seconds`; fails the test otherwise.
func waitUntil(
    _ seconds: Double, _ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool
) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return }
        Thread.sleep(forTimeInterval: 0.1)
    }
    XCTFail("waited \(seconds) s for \(what)", file: file, line: line)
}
