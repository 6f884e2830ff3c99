import Foundation

/// The OpenAPI 3.0 document of the Failscope API, served at `/api/v1/openapi.json`: the contract for the
/// reporter, the dashboard and other clients. It is `openapi.json` beside this file, embedded in the binary
/// at build time; edit it together with the routes in `FailscopeApplication` (tests check that every route
/// is documented, every documented path is routed, and every response body matches its schema).
enum OpenAPIDocument {
    /// The document as UTF-8 JSON, byte for byte the file.
    static let data = Data(PackageResources.openapi_json)
}
