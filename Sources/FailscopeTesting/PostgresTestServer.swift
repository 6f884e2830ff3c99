import Foundation
import Synchronization

/// The PostgreSQL server the tests may use: `FAILSCOPE_TEST_POSTGRES_URL` (`make test` and `.ci/run` start
/// one with `scripts/with-postgres.sh`). Without one, PostgreSQL tests are left out with one line on stderr,
/// except in CI (`CI=true`), where they must fail: they never skip there.
public enum PostgresTestServer {
    /// The server's libpq URI, `nil` when none is given.
    public static var url: String? {
        guard let url = ProcessInfo.processInfo.environment["FAILSCOPE_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }

    /// Whether a missing server is a failure (`CI=true`) rather than a reason to skip.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The failure message when `isRequired` and no server is given.
    public static let missingInCI =
        "CI=true but FAILSCOPE_TEST_POSTGRES_URL is not set: run the tests through make test"

    /// The line a test run without a server prints (once) or skips with.
    public static let skipped = "PostgreSQL tests skipped: set FAILSCOPE_TEST_POSTGRES_URL (make test starts a server)"

    private static let reported = Mutex(false)

    /// Prints, once a process, that the PostgreSQL tests are left out.
    public static func reportSkippingOnce() {
        guard
            !reported.withLock({
                let was = $0; $0 = true; return was
            })
        else { return }
        FileHandle.standardError.write(
            Data((skipped + "\n").utf8))
    }
}
