import FailscopeModel
import Foundation
import HTTPRouting

/// The API's JSON answers: `application/json`, `Cache-Control: no-store`, dates and keys as the wire types define
/// them (`WireCoding`).
enum APIResponse {
    /// `value` encoded with `WireCoding.encoder()`.
    /// - Throws: `EncodingError` (a value the encoder cannot represent).
    static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) throws -> Response {
        try Response.json(value, status: status, headers: ["Cache-Control": "no-store"], encoder: WireCoding.encoder())
    }

    /// A 200 answer already written (by `WireJSONWriter`, for the largest answers).
    static func json(bytes: Data) -> Response {
        .bytes(bytes, contentType: "application/json", headers: ["Cache-Control": "no-store"])
    }
}
