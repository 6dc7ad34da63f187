import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { type DeliveredEventType, WebhookEventPayload } from "@dormant/contracts";
import { z } from "zod";

/**
 * The `webhooks` section of the OpenAPI document (issue 14): what the notifier POSTs to an
 * endpoint, one entry per event type, with the Standard Webhooks headers and what the receiver
 * must answer.
 */

const EVENTS: Record<DeliveredEventType, { summary: string; description: string }> = {
  "filing.accepted": {
    summary: "A filing was accepted",
    description:
      "The filing reached `accepted` (a late acceptance of a filing that had ended in `error` sends it too). `data` is the filing as " +
      "`GET /filings/{filing_id}` shows it, `client_reference` included; a test key's endpoints get it for a sandbox submit at once, " +
      "`data` being the sandbox filing.",
  },
  "filing.rejected": {
    summary: "A filing was rejected",
    description:
      "The authority rejected the filing; `data.error` says why. `data` is the filing as `GET /filings/{filing_id}` shows it (test " +
      "keys: the sandbox filing, at once after the submit).",
  },
  "filing.errored": {
    summary: "A filing ended in error",
    description:
      "The filing ended in `error` (e.g. the authority did not answer in time); `data.error` says why, and submitting again is safe " +
      "when the code says so. `data` is the filing as `GET /filings/{filing_id}` shows it (test keys: the sandbox filing).",
  },
  "filing.documents_ready": {
    summary: "An accepted filing's documents can be downloaded",
    description:
      "The documents of an accepted filing are stored: list them with `GET /filings/{filing_id}/documents`. `data` is the filing as " +
      "`GET /filings/{filing_id}` shows it. Live filings only.",
  },
  "webhook.test": {
    summary: "A test event",
    description:
      "Sent only on request (`POST /webhook_endpoints/{id}/test`), to that endpoint, whatever its `events`; `data` is " +
      "`{ endpoint_id, message }`.",
  },
};

/** The Standard Webhooks headers of every attempt. */
const SIGNATURE_HEADERS = z.object({
  "webhook-id": z.string().meta({
    description: "The event's `id` (`evt_...`), the same on every attempt: deduplicate on it (delivery is at least once).",
    example: "evt_2b9d6f0c4a8e4d3f9a1b2c3d",
  }),
  "webhook-timestamp": z.string().meta({
    description: "When this attempt was signed, in seconds since the Unix epoch. Refuse timestamps far from your clock (5 minutes).",
    example: "1714557330",
  }),
  "webhook-signature": z.string().meta({
    description:
      "`v1,` + the base64 HMAC-SHA256, keyed with the endpoint's secret (the base64 after `whsec_`), of `{webhook-id}.{webhook-timestamp}.{body}`. " +
      "Several signatures are separated by spaces; verify with a Standard Webhooks library (e.g. `standardwebhooks` for Node).",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

const ANSWER =
  "Any 2xx within 10 seconds delivers the event (the body of the answer is ignored; at most 1 KiB of it is kept). Anything else — " +
  "another status, a time-out, a refused connection, a redirect (never followed) — is retried with exponential backoff, the first " +
  "two retries within a minute, for at least 3 days, with the same `webhook-id`; an endpoint failing for 3 days is disabled.";

/** Registers one webhook per delivered event type. */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const [type, { summary, description }] of Object.entries(EVENTS)) {
    registry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${type.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase())}Webhook`,
      tags: ["Webhooks"],
      summary,
      description: `${description} Signed per Standard Webhooks; \`type\` is \`${type}\`.`,
      request: {
        headers: SIGNATURE_HEADERS,
        body: { required: true, content: { "application/json": { schema: WebhookEventPayload } } },
      },
      responses: {
        "2XX": { description: ANSWER },
      },
    });
  }
}
