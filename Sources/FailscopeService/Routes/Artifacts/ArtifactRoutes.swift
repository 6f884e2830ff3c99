import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting
import PNGCodec

/// `PUT /api/v1/artifacts/{sha256}` (a screenshot or element tree, named by its digest), `GET`/`HEAD
/// /api/v1/artifacts/{sha256}` (its facts) and `GET /artifacts/{sha256}.png|.json` (its bytes).
struct ArtifactRoutes: Sendable {
    let store: FailscopeStore
    let metrics: ServiceMetrics

    /// `PUT /api/v1/artifacts/{sha256}`: stores the body under its digest; 201 when new, 200 when already stored.
    /// A PNG is read whole first (`PNGDecoder.verify`). Errors: 400 `invalid_sha256`, 415 without a
    /// `Content-Type`, 422 `artifact_rejected` (bytes that do not match the digest, or are not a PNG within the
    /// decoder's limits or JSON).
    func put(_ request: Request) throws -> Response {
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
        return try APIResponse.json(Self.link(stored.artifact), status: stored.created ? .created : .ok)
    }

    /// `GET`/`HEAD /api/v1/artifacts/{sha256}`: 200 with the artifact's facts when stored, else 404
    /// (uploaders `HEAD` it to skip uploads).
    func info(_ request: Request) throws -> Response {
        let sha256 = try request.parameter("sha256")
        guard let artifact = try ServiceError.wrapping(reading: true, { try store.artifact(sha256: sha256) }) else {
            throw ServiceError.notFound("The artifact")
        }
        return try APIResponse.json(Self.link(artifact))
    }

    static func link(_ artifact: ArtifactStore.Verified) -> ArtifactLink {
        ArtifactLink(
            sha256: artifact.sha256, kind: artifact.kind, byteCount: artifact.byteCount, width: artifact.width,
            height: artifact.height, available: true)
    }

    /// `GET /artifacts/{sha256}.png|.json`: the stored bytes, immutable (content-addressed), with
    /// `ETag` = the digest, `nosniff` and `Content-Security-Policy: sandbox`; 404 for anything else
    /// (``ArtifactFiles``, which remembers digests the store confirmed so hot screenshots skip SQLite).
    ///
    /// Open even when a read token is set: `<img>` cannot send a bearer token, and the names are 256-bit
    /// digests that only authorized API reads reveal.
    func file(_ kind: ArtifactRef.Kind, memoryBudget: Int) -> Handler {
        ArtifactFiles(store: store, kind: kind, memoryBudget: memoryBudget).respond
    }
}
