-- Webhook filters (README.md, "Webhooks"): the event types and branch patterns a webhook is sent, each a JSON
-- array of strings (WebhookFilter); NULL sends every event type, or every branch.
-- Append-only: never edit this file after it shipped.
ALTER TABLE webhooks ADD COLUMN events TEXT;
ALTER TABLE webhooks ADD COLUMN branches TEXT;
