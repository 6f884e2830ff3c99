import Foundation

/// `GET /api/v1/errors`: the unique errors (failure signatures) of a project's failed and errored results
/// in a window, ranked by affected tests, then runs, then failures (docs/errors.md).
public struct ErrorList: Codable, Sendable, Hashable {
    /// A result where an error was seen: its run, the run's commit and the result's time.
    public struct Sighting: Codable, Sendable, Hashable {
        public var runId: String
        public var commit: String?
        public var at: Date

        public init(runId: String, commit: String?, at: Date) {
            self.runId = runId
            self.commit = commit
            self.at = at
        }
    }

    /// One unique error.
    public struct Entry: Codable, Sendable, Hashable {
        public var signature: FailureSignature
        /// Distinct tests (test ids) with a result failing with it in the window.
        public var tests: Int
        /// Distinct runs with such a result in the window.
        public var runs: Int
        /// Failed or errored results (every attempt) with it in the window.
        public var failures: Int
        /// The first result ever with it (any time, on the filtered branch), and the newest.
        public var firstSeen: Sighting
        public var lastSeen: Sighting
        /// The pages and devices of its results in the window, sorted; a result without one adds nothing.
        public var pages: [String]
        public var devices: [String]

        public init(
            signature: FailureSignature, tests: Int, runs: Int, failures: Int, firstSeen: Sighting, lastSeen: Sighting,
            pages: [String], devices: [String]
        ) {
            self.signature = signature
            self.tests = tests
            self.runs = runs
            self.failures = failures
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
            self.pages = pages
            self.devices = devices
        }
    }

    /// 00:00 UTC of the window's first day.
    public var since: Date
    public var errors: [Entry]

    public init(since: Date, errors: [Entry]) {
        self.since = since
        self.errors = errors
    }
}
