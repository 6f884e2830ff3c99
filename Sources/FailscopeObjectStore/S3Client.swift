import CCurl
import FailscopeStore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP requests to one S3-compatible bucket through libcurl, which signs them (AWS Signature Version 4:
/// `CURLOPT_AWS_SIGV4` `aws:amz:REGION:s3`, the key and secret as `CURLOPT_USERPWD`; libcurl's
/// `CURLOPT_AWS_SIGV4` manual page). No signing code lives here. A body's `x-amz-content-sha256` header is the
/// hex SHA-256 the caller already knows (an artifact's name), which libcurl signs as the payload hash.
///
/// Easy handles are pooled (each keeps its connection alive, so requests reuse connections). A request that
/// cannot connect or exceeds the configuration's timeouts throws ``ArtifactStorageError/unavailable(_:)``;
/// answers are returned with their status for the caller to judge. Messages never carry credentials.
final class S3Client: Sendable {
    let configuration: S3Configuration
    private let handles = Mutex<[EasyHandle]>([])
    /// A libcurl easy handle, used by one request at a time (taken from and returned to the pool under its lock).
    private struct EasyHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }
    private let credentials: String

    /// An answer: status, header fields (names lowercased) and body (empty when written to a file).
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    init(configuration: S3Configuration) {
        Self.initializeOnce
        self.configuration = configuration
        credentials = configuration.accessKeyID + ":" + configuration.secretAccessKey
    }

    deinit {
        for handle in handles.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
    }

    private static let initializeOnce: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Performs `method` on `key` (percent-encoded; empty: the bucket) with `query` (encoded, parameters sorted),
    /// sending `body` (with its hex SHA-256 `bodySHA256` and `contentType`) and writing a 2xx body to
    /// `file` when given (else into ``Answer/body``).
    ///
    /// - Throws: ``ArtifactStorageError/unavailable(_:)`` when no answer came (refused, reset, timeout), or a
    ///   file error.
    func perform(
        _ method: String, key: String, query: String = "", body: [UInt8]? = nil, bodySHA256: String? = nil,
        contentType: String? = nil, file: FileHandle? = nil
    ) throws -> Answer {
        let pooled = handles.withLock { $0.popLast() } ?? EasyHandle(pointer: curl_easy_init()!)
        let handle = pooled.pointer
        var keep = true
        defer {
            if keep { handles.withLock { $0.append(pooled) } } else { curl_easy_cleanup(handle) }
        }
        curl_easy_reset(handle)
        let sink = Sink(file: file)
        let url = configuration.url(key: key, query: query)
        var fields: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(fields) }
        // No "Expect:" override: libcurl 7.88 signs the emptied field but does not send it (403 SignatureDoesNotMatch).
        var headerLines: [String] = []
        if let token = configuration.sessionToken { headerLines.append("x-amz-security-token: \(token)") }
        if let contentType { headerLines.append("Content-Type: \(contentType)") }
        headerLines.append("x-amz-content-sha256: \(bodySHA256 ?? Self.emptySHA256)")
        for line in headerLines { fields = curl_slist_append(fields, line) }

        let code: CURLcode = withExtendedLifetime(sink) {
            let context = Unmanaged.passUnretained(sink).toOpaque()
            ccurl_setopt_string(handle, CURLOPT_URL, url)
            ccurl_setopt_string(handle, CURLOPT_AWS_SIGV4, "aws:amz:\(configuration.region):s3")
            ccurl_setopt_string(handle, CURLOPT_USERPWD, credentials)
            ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, fields)
            ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, configuration.connectTimeout)
            ccurl_setopt_long(handle, CURLOPT_TIMEOUT, configuration.requestTimeout)
            ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            ccurl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, Sink.write)
            ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            ccurl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, Sink.header)
            ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
            switch method {
            case "GET": break
            case "HEAD": ccurl_setopt_long(handle, CURLOPT_NOBODY, 1)
            default: ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
            }
            guard let body else { return curl_easy_perform(handle) }
            return body.withUnsafeBytes { buffer in
                ccurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(buffer.count))
                ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
                return curl_easy_perform(handle)
            }
        }
        if let failure = sink.failure { throw failure }
        guard code == CURLE_OK else {
            keep = false
            let reason = String(cString: curl_easy_strerror(code))
            throw ArtifactStorageError.unavailable("\(configuration.endpoint) did not answer (\(reason))")
        }
        var status = 0
        ccurl_response_code(handle, &status)
        return Answer(status: status, headers: sink.headers, body: sink.body)
    }

    /// SHA-256 of no bytes: the payload hash of a request without a body.
    static let emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// What libcurl's callbacks fill in for one request (they run on the calling thread, inside `perform`).
    private final class Sink {
        let file: FileHandle?
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        var status = 0
        var failure: (any Error)?

        init(file: FileHandle?) { self.file = file }

        static let write: ccurl_data_callback = { buffer, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let buffer, length > 0 else { return length }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
            // Error answers (XML) are kept in memory; only a 2xx body goes to the file.
            if let file = sink.file, (200..<300).contains(sink.status) {
                do {
                    try file.write(contentsOf: Data(bytes))
                } catch {
                    sink.failure = error
                    return 0
                }
            } else if sink.body.count < 64 << 20 {
                sink.body.append(contentsOf: bytes)
            }
            return length
        }

        static let header: ccurl_data_callback = { buffer, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let buffer else { return length }
            let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                // A new response (after a redirect or 100 Continue): its status, fresh fields.
                sink.headers = [:]
                let parts = line.split(separator: " ")
                sink.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                sink.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return length
        }
    }
}
