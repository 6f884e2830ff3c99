import Foundation

/// An artifact as a result references it, with where to fetch it.
///
/// `url` is the service path (`/artifacts/<sha256>.png` or `.json`); `available` is `false` while
/// the bytes have not been uploaded (a result may arrive before its artifacts).
public struct ArtifactLink: Codable, Sendable, Hashable {
    public var sha256: String
    public var kind: ArtifactRef.Kind
    public var byteCount: Int
    public var width: Int?
    public var height: Int?
    public var url: String
    public var available: Bool

    public init(
        sha256: String, kind: ArtifactRef.Kind, byteCount: Int, width: Int?, height: Int?, available: Bool
    ) {
        self.sha256 = sha256
        self.kind = kind
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.url = Self.path(sha256: sha256, kind: kind)
        self.available = available
    }

    /// The service path of an artifact: `/artifacts/<sha256>.png` for screenshots, `.json` for trees.
    public static func path(sha256: String, kind: ArtifactRef.Kind) -> String {
        "/artifacts/\(sha256).\(kind == .screenshot ? "png" : "json")"
    }
}

/// `GET /api/v1/results/{resultId}`: one result with everything the failure view shows.
///
/// `elementFrame` is the first failure's target element frame (points). `lastPassingScreenshot` is
/// the newest screenshot of the same page (same project) attached to a passing result that ran
/// before this one, for a side-by-side comparison; `nil` when there is none. `passingTrace` is the trail of
/// the newest passing result of the same test whose steps carry element trees (same device first), for the
/// failure view's "What changed" (docs/trace.md); `nil` when the test has none.
public struct ResultDetail: Codable, Sendable, Hashable {
    public var result: ResultSummary
    public var run: RunSummary
    public var skipReason: String?
    public var failures: [Failure]
    public var artifacts: [ArtifactLink]
    public var trail: [TrailStep]
    public var pagesVisited: [String]
    public var elementFrame: Frame?
    public var lastPassingScreenshot: PassingScreenshot?
    public var passingTrace: PassingTrace?
    public var systemOut: String?
    public var systemErr: String?

    public init(
        result: ResultSummary, run: RunSummary, skipReason: String?, failures: [Failure], artifacts: [ArtifactLink],
        trail: [TrailStep], pagesVisited: [String], elementFrame: Frame?, lastPassingScreenshot: PassingScreenshot?,
        passingTrace: PassingTrace? = nil, systemOut: String?, systemErr: String?
    ) {
        self.result = result
        self.run = run
        self.skipReason = skipReason
        self.failures = failures
        self.artifacts = artifacts
        self.trail = trail
        self.pagesVisited = pagesVisited
        self.elementFrame = elementFrame
        self.lastPassingScreenshot = lastPassingScreenshot
        self.passingTrace = passingTrace
        self.systemOut = systemOut
        self.systemErr = systemErr
    }

    /// The trail of a passing result of the same test, with its steps' element trees.
    public struct PassingTrace: Codable, Sendable, Hashable {
        public var resultId: Int
        public var runId: String
        /// The device it ran on.
        public var device: String?
        public var trail: [TrailStep]

        public init(resultId: Int, runId: String, device: String?, trail: [TrailStep]) {
            self.resultId = resultId
            self.runId = runId
            self.device = device
            self.trail = trail
        }
    }

    /// A screenshot of the same page from an earlier passing result.
    public struct PassingScreenshot: Codable, Sendable, Hashable {
        public var resultId: Int
        public var runId: String
        public var artifact: ArtifactLink

        public init(resultId: Int, runId: String, artifact: ArtifactLink) {
            self.resultId = resultId
            self.runId = runId
            self.artifact = artifact
        }
    }
}
