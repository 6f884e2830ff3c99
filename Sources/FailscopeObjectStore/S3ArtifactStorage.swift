import FailscopeModel
import FailscopeStore
import Foundation
import Synchronization

/// Artifacts in an S3-compatible bucket (Amazon S3, MinIO, SeaweedFS, Ceph, Cloudflare R2, Google Cloud Storage's
/// interoperability mode): one object per artifact, key `PREFIX/ab/<sha256>`, through ``S3Client`` (libcurl signs).
///
/// Shared by any number of replicas: `put` asks `HEAD` first and uploads only when the object is missing; two
/// replicas uploading the same digest at once both `PUT` identical bytes under one key, which leaves one object
/// (content addressing makes the upload idempotent). Reads go through a bounded local ``ObjectCache`` (the
/// uploaded bytes and every downloaded object are kept there, least recently used evicted first).
///
/// Errors: no answer (connection refused, timeout) is ``ArtifactStorageError/unavailable(_:)``; a 5xx answer too;
/// `403` (wrong credentials) and a missing bucket are ``ArtifactStorageError/refused(_:)``. Messages carry the
/// endpoint, the bucket and S3's error code, never the credentials.
public final class S3ArtifactStorage: ArtifactStorage {
    public let configuration: S3Configuration
    let client: S3Client
    let cache: ObjectCache

    /// The default size of the local cache: 256 MiB.
    public static let defaultCacheBytes = 256 << 20

    /// Connects nothing yet (``checkHealth()`` asks the bucket); the local cache lives in `cacheDirectory`, emptied
    /// now, and holds at most `cacheBytes` (one process per folder: `failscope serve` uses `DATA/artifact-cache`).
    /// Without a folder (`gc`, `copy`) downloads go to a private temporary folder and are kept only until the next.
    ///
    /// - Throws: file system errors creating the cache folder.
    public init(configuration: S3Configuration, cacheDirectory: URL?, cacheBytes: Int = defaultCacheBytes) throws {
        self.configuration = configuration
        client = S3Client(configuration: configuration)
        let directory =
            cacheDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("failscope-objects-\(UUID().uuidString)")
        cache = try ObjectCache(directory: directory, capacity: cacheDirectory == nil ? 0 : cacheBytes)
    }

    public var location: String { configuration.description }

    /// Bytes in the local cache now.
    public var cachedByteCount: Int { cache.byteCount }

    public func put(_ bytes: [UInt8], verified: ArtifactStore.Verified) throws -> Bool {
        let key = encodedKey(verified.sha256)
        let head = try client.perform("HEAD", key: key)
        if head.status == 200 { return false }
        guard head.status == 404 else { throw judge(head, doing: "HEAD") }
        let answer = try client.perform(
            "PUT", key: key, body: bytes, bodySHA256: verified.sha256, contentType: verified.kind.mediaType)
        guard answer.status == 200 else { throw judge(answer, doing: "PUT") }
        cache.insert(sha256: verified.sha256, bytes: bytes)
        return true
    }

    public func contains(sha256: String) throws -> Bool {
        guard SHA256.isValidHex(sha256) else { return false }
        if cache.file(sha256: sha256) != nil { return true }
        let head = try client.perform("HEAD", key: encodedKey(sha256))
        if head.status == 200 { return true }
        guard head.status == 404 else { throw judge(head, doing: "HEAD") }
        try checkHealth()  // a HEAD of a missing bucket's object is a 404 too: say which
        return false
    }

    public func open(sha256: String) throws -> ArtifactFile? {
        guard SHA256.isValidHex(sha256) else { return nil }
        if let file = cache.file(sha256: sha256) { return file }
        var failure: (any Error)?
        let file = try cache.download(sha256: sha256) { handle in
            let answer = try client.perform("GET", key: encodedKey(sha256), file: handle)
            if answer.status == 200 { return true }
            if answer.status != 404 || Self.errorCode(answer) == "NoSuchBucket" {
                failure = judge(answer, doing: "GET")
            }
            return false
        }
        if let failure { throw failure }
        return file
    }

    public func remove(sha256: String) throws {
        guard SHA256.isValidHex(sha256) else { return }
        cache.remove(sha256: sha256)
        let answer = try client.perform("DELETE", key: encodedKey(sha256))
        guard [200, 204, 404].contains(answer.status) else { throw judge(answer, doing: "DELETE") }
    }

    /// Removes the objects of `sha256s`, 16 requests at a time (one `DELETE` each: every S3-compatible server has
    /// it, where the batch `DeleteObjects` needs a `Content-MD5` some servers require and others ignore).
    ///
    /// - Throws: the first error of any request; the others still ran.
    public func remove(sha256s: [String]) throws {
        let failures = Mutex<[any Error]>([])
        let workers = min(16, sha256s.count)
        // Threads of their own: `concurrentPerform` runs only as many at once as there are cores, and these wait
        // on the network.
        let finished = DispatchGroup()
        for worker in 0..<workers {
            finished.enter()
            Thread {
                for index in stride(from: worker, to: sha256s.count, by: workers) {
                    do {
                        try self.remove(sha256: sha256s[index])
                    } catch {
                        failures.withLock { $0.append(error) }
                    }
                }
                finished.leave()
            }.start()
        }
        finished.wait()
        if let first = failures.withLock({ $0.first }) { throw first }
    }

    /// Every object under the prefix named like an artifact (`PREFIX/ab/<sha256>`; other keys are left alone),
    /// 1,000 a request (`ListObjectsV2`).
    public func list() throws -> [StoredArtifact] {
        let prefix = configuration.prefix.isEmpty ? "" : configuration.prefix + "/"
        var found: [StoredArtifact] = []
        var token: String?
        repeat {
            var query = ""
            if let token {
                query += "continuation-token=\(S3Configuration.percentEncoded(token, keepingSlash: false))&"
            }
            query += "list-type=2&prefix=\(S3Configuration.percentEncoded(prefix, keepingSlash: false))"
            let answer = try client.perform("GET", key: "", query: query)
            guard answer.status == 200, let page = ObjectListing(xml: answer.body) else {
                throw judge(answer, doing: "LIST")
            }
            for entry in page.entries {
                let sha256 = String(entry.key.split(separator: "/").last ?? "")
                guard SHA256.isValidHex(sha256), entry.key == configuration.key(sha256: sha256) else { continue }
                found.append(StoredArtifact(sha256: sha256, byteCount: entry.size, lastModified: entry.lastModified))
            }
            token = page.nextContinuationToken
        } while token != nil
        return found
    }

    /// Nothing to do: an interrupted `PUT` stores no object.
    public func removeLeftovers(before date: Date) {}

    /// `HEAD` of the bucket: 200 is healthy.
    ///
    /// - Throws: ``ArtifactStorageError/refused(_:)`` for a missing bucket or refused credentials,
    ///   ``ArtifactStorageError/unavailable(_:)`` when the server does not answer or fails.
    public func checkHealth() throws {
        let answer = try client.perform("HEAD", key: "")
        switch answer.status {
        case 200: return
        case 404: throw ArtifactStorageError.refused("the bucket \(configuration.bucket) does not exist")
        default: throw judge(answer, doing: "HEAD of the bucket")
        }
    }

    private func encodedKey(_ sha256: String) -> String {
        S3Configuration.percentEncoded(configuration.key(sha256: sha256), keepingSlash: true)
    }

    /// The error of an unexpected answer: S3's error code (from the XML body) and the status; never the body itself.
    private func judge(_ answer: S3Client.Answer, doing what: String) -> ArtifactStorageError {
        let code = Self.errorCode(answer).map { " \($0)" } ?? ""
        let detail = "\(what) answered \(answer.status)\(code)"
        switch answer.status {
        case 401, 403:
            return .refused("\(configuration.endpoint) refused the credentials (\(detail))")
        case 404 where code == " NoSuchBucket" || what.hasPrefix("HEAD"):
            return .refused("the bucket \(configuration.bucket) does not exist (\(detail))")
        case 500..<600, 408, 429:
            return .unavailable("\(configuration.endpoint) failed (\(detail))")
        default:
            return .refused("\(configuration.endpoint): \(detail)")
        }
    }

    /// The `<Code>` of an S3 error body (`AccessDenied`, `NoSuchBucket`, `SignatureDoesNotMatch`), when it has one
    /// made of letters.
    static func errorCode(_ answer: S3Client.Answer) -> String? {
        let text = String(decoding: answer.body.prefix(4096), as: UTF8.self)
        guard let start = text.range(of: "<Code>"),
            let end = text.range(of: "</Code>", range: start.upperBound..<text.endIndex)
        else { return nil }
        let code = String(text[start.upperBound..<end.lowerBound])
        return code.allSatisfy({ $0.isASCII && $0.isLetter }) && code.count <= 64 ? code : nil
    }
}
