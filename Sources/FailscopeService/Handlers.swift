import FailscopeModel
import FailscopeStore
import Foundation
import HTTPServer
import PNGCodec

/// The route handlers; each validates its input, calls the store once and encodes a shared API type.
/// Authorization is not theirs: `FailscopeApplication.build` gives each route its check, which the transport
/// runs on the request head, before any body byte is read.
struct Handlers: Sendable {
    let store: FailscopeStore
    let metrics: ServiceMetrics

    static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) throws -> Response {
        try Response.json(value, status: status, headers: ["Cache-Control": "no-store"], encoder: WireCoding.encoder())
    }

    /// A 200 JSON answer already written (by `WireJSONWriter`, for the largest answers).
    static func json(bytes: Data) -> Response {
        .bytes(bytes, contentType: "application/json", headers: ["Cache-Control": "no-store"])
    }

    // MARK: Operations

    func health(_ request: Request) throws -> Response {
        let check = try? store.pool.read { try $0.scalar("SELECT 1").int }
        guard check == 1 else {
            throw ServiceError(.serviceUnavailable, code: "unhealthy", message: "The database is not answering.")
        }
        // Still 200: reads are served. Writes are answered 507 until space is freed.
        if store.isStorageFull {
            return try Self.json([
                "status": "degraded", "storage": "full",
                "message": "The disk holding the data folder is full: uploads are refused (507); reads work.",
            ])
        }
        return try Self.json(["status": "ok"])
    }

    func metricsText(_ request: Request) throws -> Response {
        let text = metrics.render(
            artifactBytes: (try? store.artifactByteCount()) ?? 0, databaseBytes: store.databaseByteCount(),
            storageFull: store.isStorageFull, freeStorageBytes: store.freeStorageBytes)
        return .bytes(Data(text.utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    func openAPI(_ request: Request) throws -> Response {
        .bytes(OpenAPIDocument.data, contentType: "application/json")
    }

    // MARK: Ingest

    func putRun(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let run = try request.decodeJSON(Run.self, using: WireCoding.decoder())
        guard run.id == runID else {
            throw ServiceError(
                .unprocessableContent, code: "id_mismatch", message: "The body's id must equal the runId in the path.")
        }
        let outcome = try ServiceError.wrapping { try store.putRun(run) }
        guard let summary = try store.runSummary(runID) else { throw ServiceError.notFound("The run") }
        return try Self.json(summary, status: outcome == .created ? .created : .ok)
    }

    func postResults(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let batch = try request.decodeJSON(ResultBatch.self, using: WireCoding.decoder())
        let outcome = try ServiceError.wrapping { try store.addResults(batch, toRun: runID) }
        metrics.recordResultsIngested(outcome.inserted)
        return try Self.json(outcome)
    }

    func finishRun(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let finish = try request.decodeJSON(RunFinish.self, using: WireCoding.decoder())
        let summary = try ServiceError.wrapping { try store.finishRun(runID, finish) }
        return try Self.json(summary)
    }

    func putArtifact(_ request: Request) throws -> Response {
        let sha256 = try request.parameter("sha256")
        guard SHA256.isValidHex(sha256) else {
            throw ServiceError(
                .badRequest, code: "invalid_sha256",
                message: "An artifact is named by the SHA-256 of its bytes: 64 lowercase hexadecimal characters.")
        }
        guard let contentType = request.headers["Content-Type"] else {
            throw ServiceError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "Content-Type must be image/png or application/json.")
        }
        if contentType.lowercased().hasPrefix("image/png") {
            // Read every row (libpng checks chunk CRCs and the zlib stream, and refuses images over the
            // decoder's size limits before allocating): a header that lies about its size,
            // a corrupt IDAT or a decompression bomb is refused here, never served to a browser. One row
            // at a time: a 25 Mpx image costs a row (80 KB at most), not 100 MB.
            do {
                _ = try PNGDecoder().verify(request.body)
            } catch {
                throw ServiceError(
                    .unprocessableContent, code: "artifact_rejected",
                    message: "The bytes are not a valid PNG: \(error).")
            }
        }
        let stored = try ServiceError.wrapping {
            try store.putArtifact([UInt8](request.body), sha256: sha256, mediaType: contentType)
        }
        if stored.created { metrics.recordArtifactStored(bytes: stored.artifact.byteCount) }
        return try Self.json(Self.info(stored.artifact), status: stored.created ? .created : .ok)
    }

    /// `GET`/`HEAD /api/v1/artifacts/{sha256}`: 200 with the artifact's facts when stored, else 404
    /// (uploaders `HEAD` it to skip uploads).
    func artifactInfo(_ request: Request) throws -> Response {
        let sha256 = try request.parameter("sha256")
        guard let artifact = try store.artifact(sha256: sha256) else { throw ServiceError.notFound("The artifact") }
        return try Self.json(Self.info(artifact))
    }

    static func info(_ artifact: ArtifactStore.Verified) -> ArtifactLink {
        ArtifactLink(
            sha256: artifact.sha256, kind: artifact.kind, byteCount: artifact.byteCount, width: artifact.width,
            height: artifact.height, available: true)
    }

    // MARK: Reads

    func listRuns(_ request: Request) throws -> Response {
        var query = FailscopeStore.RunQuery()
        query.project = try Self.filterValue(request, "project")
        query.branch = try Self.filterValue(request, "branch")
        if let status = try Self.queryValue(request, "status") {
            guard let parsed = RunStatus(rawValue: status) else {
                throw ServiceError.invalidParameter("status must be one of incomplete, passed, failed.")
            }
            query.status = parsed
        }
        query.limit = try Self.integer(request, "limit", default: 50, in: 1...200)
        query.cursor = try Self.queryValue(request, "cursor")
        let list = try ServiceError.wrapping(fromQuery: true) { try store.runs(query) }
        return try Self.json(list)
    }

    func runDetail(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        guard let detail = try store.runDetail(runID) else {
            throw ServiceError(.notFound, code: "run_not_found", message: "The run does not exist.")
        }
        return Self.json(bytes: RunDetailJSON.encode(detail))
    }

    func resultDetail(_ request: Request) throws -> Response {
        guard let id = Int(try request.parameter("resultId")), id > 0, let detail = try store.resultDetail(id) else {
            throw ServiceError.notFound("The result", code: "result_not_found")
        }
        return try Self.json(detail)
    }

    func testHistory(_ request: Request) throws -> Response {
        let limit = try Self.integer(request, "limit", default: 100, in: 1...500)
        let cursor = try Self.queryValue(request, "cursor")
        let history = try ServiceError.wrapping(fromQuery: true) {
            try store.testHistory(try request.parameter("testId"), limit: limit, cursor: cursor)
        }
        guard let history else { throw ServiceError.notFound("The test", code: "test_not_found") }
        return try Self.json(history)
    }

    func pages(_ request: Request) throws -> Response {
        let days = try Self.integer(request, "days", default: 14, in: 1...365)
        let (project, branch) = (try Self.filterValue(request, "project"), try Self.filterValue(request, "branch"))
        let list = try ServiceError.wrapping(fromQuery: true) {
            try store.pages(project: project, branch: branch, days: days)
        }
        return try Self.json(list)
    }

    // MARK: Artifact files

    /// `GET /artifacts/{sha256}.png|.json`: the stored bytes, immutable (content-addressed), with
    /// `ETag` = the digest, `nosniff` and `Content-Security-Policy: sandbox`; 404 for anything else
    /// (``ArtifactFiles``, which remembers digests the store confirmed so hot screenshots skip SQLite).
    ///
    /// Open even when a read token is set: `<img>` cannot send a bearer token, and the names are 256-bit
    /// digests that only authorized API reads reveal.
    func artifactFile(_ kind: ArtifactRef.Kind, memoryBudget: Int) -> Handler {
        ArtifactFiles(store: store, kind: kind, memoryBudget: memoryBudget).respond
    }

    // MARK: Parameters

    /// The query parameter `name`, `nil` when absent.
    ///
    /// - Throws: 400 `invalid_parameter` when it is given more than once (`days=14&days=0` is ambiguous; no
    ///   value is picked silently).
    static func queryValue(_ request: Request, _ name: String) throws -> String? {
        let values = request.query.values(for: name)
        guard values.count <= 1 else { throw ServiceError.invalidParameter("\(name) is given more than once.") }
        return values.first
    }

    /// A filter parameter: `nil` when absent or empty (`project=` means no project filter, as on every list).
    static func filterValue(_ request: Request, _ name: String) throws -> String? {
        guard let value = try queryValue(request, name), !value.isEmpty else { return nil }
        return value
    }

    static func integer(_ request: Request, _ name: String, default value: Int, in range: ClosedRange<Int>) throws
        -> Int
    {
        guard let text = try queryValue(request, name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ServiceError.invalidParameter(
                "\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound).")
        }
        return number
    }
}
