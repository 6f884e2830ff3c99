import FailscopeObjectStore
import FailscopeStore
import Foundation

extension SharedOptions {
    /// `--artifacts`: where screenshots and element trees are stored, a folder or `s3://bucket/prefix`; read with
    /// `Arguments.artifactStorage(data:cache:)`.
    static let artifacts = Option<String>(
        "artifacts", value: "place",
        help: "Where screenshots and element trees are stored: a folder, or s3://BUCKET[/PREFIX] (AWS_ENDPOINT_URL, "
            + "AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_S3_FORCE_PATH_STYLE).",
        defaultHelp: "artifacts in --data", environment: "FAILSCOPE_ARTIFACTS")

    /// `--artifact-cache-mb`: the local cache of an object storage's hot objects, in megabytes.
    static let artifactCacheMegabytes = Option<Int>.integer(
        "artifact-cache-mb", in: 0...1_048_576,
        help: "With object storage, keep the most recently used objects in DATA/artifact-cache, at most this many "
            + "megabytes.", default: S3ArtifactStorage.defaultCacheBytes >> 20,
        environment: "FAILSCOPE_ARTIFACT_CACHE_MB")
}

extension Arguments {
    /// `--artifacts` (or `FAILSCOPE_ARTIFACTS`) as a storage; `nil` when not given (the data folder's
    /// `artifacts/`). With `cache`, object storage keeps hot objects in `DATA/artifact-cache`
    /// (`--artifact-cache-mb`, which the command must declare).
    func artifactStorage(data: URL, cache: Bool) throws -> (any ArtifactStorage)? {
        guard let text = try value(SharedOptions.artifacts), !text.isEmpty else { return nil }
        let megabytes = cache ? try required(SharedOptions.artifactCacheMegabytes) : 0
        return try Self.artifactStorage(
            text, option: "--artifacts", cacheDirectory: cache ? data.appendingPathComponent("artifact-cache") : nil,
            cacheBytes: megabytes << 20)
    }

    /// The storage `text` names (a folder or `s3://…`, with the AWS variables), with object storage's local
    /// cache of `cacheBytes` in `cacheDirectory` (none when `nil`); a malformed location is a usage error about
    /// `option`.
    static func artifactStorage(_ text: String, option: String, cacheDirectory: URL?, cacheBytes: Int = 0) throws
        -> any ArtifactStorage
    {
        guard S3Configuration.isObjectStorage(text) else {
            return ArtifactStore(root: URL(fileURLWithPath: text))
        }
        let configuration: S3Configuration
        do {
            configuration = try S3Configuration(location: text, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw UsageError("\(option): \(error)")
        }
        return try S3ArtifactStorage(
            configuration: configuration, cacheDirectory: cacheDirectory, cacheBytes: cacheBytes)
    }
}
