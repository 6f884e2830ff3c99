import Foundation
import HTTPServer

/// Serves the regular files under one directory: safe path resolution, content types, `ETag` with
/// `If-None-Match` → 304, `Cache-Control`, `X-Content-Type-Options: nosniff`; never a directory listing.
///
/// Mount it on a route whose last segment is a rest parameter:
/// ```swift
/// let web = StaticFiles(root: "Web")
/// router.get("/{path...}", web.respond)
/// ```
///
/// Path safety: the rest parameter (still percent-encoded) is split on `/` and each segment decoded on its own.
/// A segment that is malformed, empty (`a//b`), `.` or `..`, starts with `.` (hidden files), or decodes to contain
/// `/`, `\` or NUL is refused with 404 before any file-system call, so `..`, `%2e%2e` and `%2f` never reach the file
/// system. The final path component is opened with `O_NOFOLLOW`. A path ending in `/` (or empty) serves the
/// directory's index file when there is one.
public struct StaticFiles: Sendable {
    /// The directory served, without a trailing `/`.
    public let root: String
    /// The name of the rest parameter holding the file path (default `path`).
    public let parameterName: String
    /// The `Cache-Control` value sent with every file (default `no-cache`: revalidate with the `ETag`).
    public let cacheControl: String
    /// The file served for a directory path ending in `/`, or `nil` for none.
    public let indexFile: String?
    /// Extra header fields added to every file response (for example a `Content-Security-Policy`).
    public let extraHeaders: HTTPHeaders

    public init(
        root: String, parameterName: String = "path", cacheControl: String = "no-cache",
        indexFile: String? = "index.html", extraHeaders: HTTPHeaders = [:]
    ) {
        var root = root
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        self.root = root
        self.parameterName = parameterName
        self.cacheControl = cacheControl
        self.indexFile = indexFile
        self.extraHeaders = extraHeaders
    }

    /// The response for the file named by the request's rest parameter (a ``Handler``).
    ///
    /// - Throws: ``HTTPStatusError`` 404 `not_found` for any path that is unsafe, missing, a directory without an
    ///   index, or not a regular file.
    public func respond(to request: Request) throws -> Response {
        guard let relative = Self.safeRelativePath(request.parameters[parameterName] ?? "", indexFile: indexFile)
        else { throw HTTPStatusError.notFound() }
        let file = try OpenFile(path: root + "/" + relative, noFollow: true)
        return Self.fileResponse(
            file, contentType: Self.contentType(forPath: relative), etag: Self.etag(for: file),
            cacheControl: cacheControl, request: request, extraHeaders: extraHeaders)
    }

    /// A file response with validators: 304 (no body) when `If-None-Match` names `etag`, otherwise 200 with the
    /// file. Sets `Content-Type`, `ETag`, `Cache-Control`, `X-Content-Type-Options: nosniff` and `extraHeaders`.
    /// Use it for files found by other means (for example content-addressed artifacts with their SHA-256 as ETag).
    ///
    /// - Parameter etag: a quoted entity tag (`"abc"`), as sent in `ETag` (RFC 9110, section 8.8.3).
    public static func fileResponse(
        _ file: OpenFile, contentType: String, etag: String, cacheControl: String, request: Request,
        extraHeaders: HTTPHeaders = [:]
    ) -> Response {
        var headers = extraHeaders
        headers["ETag"] = etag
        headers["Cache-Control"] = cacheControl
        headers["X-Content-Type-Options"] = "nosniff"
        if let condition = request.headers["If-None-Match"], Self.matches(ifNoneMatch: condition, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers["Content-Type"] = contentType
        return Response(status: .ok, headers: headers, body: .file(file))
    }

    /// `"<size hex>-<mtime hex>"`: changes when the file is rewritten.
    public static func etag(for file: OpenFile) -> String {
        "\"\(String(file.fileSize, radix: 16))-\(String(file.modificationTime, radix: 16))\""
    }

    /// Whether an `If-None-Match` field value matches `etag` (weak comparison, `*` matches; RFC 9110, 13.1.2).
    public static func matches(ifNoneMatch: String, etag: String) -> Bool {
        func opaque(_ tag: Substring) -> Substring {
            let trimmed = tag.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            let text = Substring(trimmed)
            return text.hasPrefix("W/") ? text.dropFirst(2) : text
        }
        let target = opaque(Substring(etag))
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = opaque(candidate)
            return tag == "*" || tag == target
        }
    }

    /// The decoded, checked relative path for a raw (percent-encoded) rest parameter, or `nil` if it is unsafe.
    static func safeRelativePath(_ raw: String, indexFile: String?) -> String? {
        var segments: [String] = []
        let parts = raw.split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if part.isEmpty {
                // Only the final segment may be empty: a directory path, served by its index file.
                guard index == parts.count - 1, let indexFile else { return nil }
                segments.append(indexFile)
                continue
            }
            guard let segment = PercentDecoding.decodePath(part), !segment.hasPrefix("."),
                !segment.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 })
            else { return nil }
            segments.append(segment)
        }
        return segments.isEmpty ? nil : segments.joined(separator: "/")
    }

    /// The media type for a file name's extension; `application/octet-stream` when unknown.
    public static func contentType(forPath path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
        return contentTypes[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Extension → media type for the files a dashboard and its artifacts use.
    public static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json", "map": "application/json",
        "txt": "text/plain; charset=utf-8", "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "ico": "image/x-icon",
        "woff2": "font/woff2", "woff": "font/woff", "xml": "application/xml", "yaml": "application/yaml",
    ]
}
