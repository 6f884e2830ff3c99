import FailscopeObjectStore
import FailscopeStore
import Foundation

extension Arguments {
    /// `--artifacts` (or `FAILSCOPE_ARTIFACTS`): a folder, or `s3://bucket/prefix` with the endpoint, region and
    /// credentials from the AWS variables (``S3Configuration``); `nil` when neither is given (`DATA/artifacts`).
    /// With `cache`, object storage keeps hot objects in `DATA/artifact-cache` (`FAILSCOPE_ARTIFACT_CACHE_MB`,
    /// default 256).
    mutating func artifactStorage(data: URL, cache: Bool) throws -> (any ArtifactStorage)? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = option("artifacts") ?? environment["FAILSCOPE_ARTIFACTS"], !text.isEmpty else { return nil }
        return try Self.artifactStorage(
            text, option: "--artifacts", cacheDirectory: cache ? data.appendingPathComponent("artifact-cache") : nil)
    }

    /// The storage `text` names (a folder or `s3://…`), with object storage's local cache in `cacheDirectory`
    /// (none when `nil`); a malformed location is a usage error about `option`.
    static func artifactStorage(_ text: String, option: String, cacheDirectory: URL?) throws -> any ArtifactStorage {
        let environment = ProcessInfo.processInfo.environment
        guard S3Configuration.isObjectStorage(text) else {
            return ArtifactStore(root: URL(fileURLWithPath: text))
        }
        let configuration: S3Configuration
        do {
            configuration = try S3Configuration(location: text, environment: environment)
        } catch {
            throw UsageError("\(option): \(error)")
        }
        var cacheBytes = S3ArtifactStorage.defaultCacheBytes
        if let megabytes = environment["FAILSCOPE_ARTIFACT_CACHE_MB"] {
            guard let value = Int(megabytes), (0...1_048_576).contains(value) else {
                throw UsageError(
                    "FAILSCOPE_ARTIFACT_CACHE_MB must be a whole number in 0...1048576, got \"\(megabytes)\"")
            }
            cacheBytes = value << 20
        }
        return try S3ArtifactStorage(
            configuration: configuration, cacheDirectory: cacheDirectory, cacheBytes: cacheBytes)
    }

    /// The help lines of `--artifacts`, the same in every command that takes it.
    static let artifactsHelp = """
          --artifacts <place>     Where screenshots and element trees are stored: a folder, or s3://BUCKET[/PREFIX]
                                  (AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
                                  AWS_SESSION_TOKEN, AWS_S3_FORCE_PATH_STYLE). (default: artifacts in --data;
                                  env FAILSCOPE_ARTIFACTS)
        """
}
