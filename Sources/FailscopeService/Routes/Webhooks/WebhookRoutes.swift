import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET|POST /api/v1/webhooks`, `DELETE /api/v1/webhooks/{webhookId}` and `GET /api/v1/webhooks/{webhookId}/deliveries`:
/// the webhooks and their delivery log (README.md, "Webhooks"). No answer carries a secret. Creating one whose URL an
/// API webhook already has updates that one's secret (200 instead of 201).
struct WebhookRoutes: Sendable {
    let store: FailscopeStore

    func list(_ request: Request) throws -> Response {
        try APIResponse.json(try ServiceError.wrapping(fromQuery: true) { try store.webhooks() })
    }

    func create(_ request: Request) throws -> Response {
        let create = try request.decodeJSONObject(
            WebhookCreate.self, using: WireCoding.decoder(), encoder: WireCoding.encoder())
        let outcome = try ServiceError.wrapping { try store.createWebhook(create) }
        return try APIResponse.json(outcome.webhook, status: outcome.created ? .created : .ok)
    }

    func delete(_ request: Request) throws -> Response {
        let id = try request.parameter("webhookId")
        try ServiceError.wrapping { try store.deleteWebhook(id) }
        return Response(status: .noContent)
    }

    func deliveries(_ request: Request) throws -> Response {
        let id = try request.parameter("webhookId")
        let limit = try request.queryInteger("limit", default: 100, in: 1...1_000)
        guard let list = try ServiceError.wrapping(fromQuery: true, { try store.webhookDeliveries(id, limit: limit) })
        else { throw ServiceError.notFound("The webhook", code: "webhook_not_found") }
        return try APIResponse.json(list)
    }
}
