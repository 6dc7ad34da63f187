import { z } from "zod";
import { Filing } from "./filing.ts";
import { PAGE_QUERY_FIELDS, PAGE_SIZE, Pagination } from "./filings-list.ts";
import { DateTime, fieldError } from "./primitives.ts";
import { SandboxFiling } from "./sandbox.ts";

/**
 * Webhooks (issue 14): endpoints an account registers, and the signed events the notifier pushes
 * to them (Standard Webhooks). The gateway's `/webhook_endpoints` routes validate with these
 * schemas; the notifier (apps/notifier) owns the endpoints and delivers the events.
 */

/** The events an endpoint can subscribe to (`webhook.test` is sent only on request, to that endpoint). */
export const WEBHOOK_EVENT_TYPES = ["filing.accepted", "filing.rejected", "filing.errored", "filing.documents_ready"] as const;
export const WebhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES, { error: fieldError(`must be one of: ${WEBHOOK_EVENT_TYPES.join(", ")}`) })
  .meta({
    id: "WebhookEventType",
    description:
      "`filing.accepted`, `filing.rejected`, `filing.errored`: the filing reached that final status (a late acceptance of a filing that " +
      "had ended in error sends `filing.accepted` too). `filing.documents_ready`: the accepted filing's documents can be downloaded.",
  });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** Every type a delivered event can have. */
export const DeliveredEventType = z.enum([...WEBHOOK_EVENT_TYPES, "webhook.test"]).meta({ id: "DeliveredEventType" });
export type DeliveredEventType = z.infer<typeof DeliveredEventType>;

export const WEBHOOK_ENDPOINT_ID_PATTERN = /^we_[A-Za-z0-9]{16,32}$/;
export const WebhookEndpointId = z
  .string()
  .regex(WEBHOOK_ENDPOINT_ID_PATTERN, "must be a webhook endpoint id (we_...)")
  .meta({ description: "The endpoint's id (`we_...`)." });

export const WEBHOOK_EVENT_ID_PATTERN = /^evt_[A-Za-z0-9_]{16,64}$/;
export const WebhookEventId = z
  .string()
  .regex(WEBHOOK_EVENT_ID_PATTERN)
  .meta({ description: "The event's id (`evt_...`): the `webhook-id` header of every attempt." });

/** The signing secret as Standard Webhooks writes it: `whsec_` and the base64 of 32 random bytes. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;
export const WebhookSecret = z.string().regex(WEBHOOK_SECRET_PATTERN).meta({
  description:
    "The signing secret (Standard Webhooks: `whsec_` + base64). Shown only when the endpoint is created or its secret rotated; store it, it cannot be read again.",
});

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WebhookUrl = z
  .string({ error: fieldError("must be a string") })
  .max(WEBHOOK_URL_MAX_LENGTH, `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "" && url.username === "" && url.password === "";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL without credentials")
  .meta({
    description:
      "Where events are POSTed. `https` in production; hosts that resolve to loopback, private, link-local or cloud metadata addresses are refused.",
    example: "https://agent.example.com/hooks/dormant",
  });

/**
 * Endpoints (not deleted) one account may have in one mode (live or test, counted apart): enough for
 * every agent integration, not a fan-out that turns each event into a flood (issue 28). Creating
 * one more is `VALIDATION_ERROR` with `details: [{field: "url", ...}]`; delete one first.
 */
export const MAX_WEBHOOK_ENDPOINTS_PER_MODE = 10;

/** `POST /webhook_endpoints` body. */
export const CreateWebhookEndpointRequest = z
  .strictObject(
    {
      url: WebhookUrl,
      events: z
        .array(WebhookEventType)
        .min(1, "must list at least one event type")
        .refine((events) => new Set(events).size === events.length, "must not list an event type twice")
        .optional()
        .meta({ description: "The event types to send (default: all of them)." }),
      description: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .meta({ description: "Your own note about the endpoint (at most 200 characters)." }),
    },
    { error: fieldError("must be an object") },
  )
  .meta({ id: "CreateWebhookEndpointRequest" });
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const WebhookEndpointStatus = z.enum(["enabled", "disabled"]).meta({
  id: "WebhookEndpointStatus",
  description:
    "`disabled`: every delivery to it failed for 3 days; nothing more is sent (its pending deliveries were cancelled). Once it works " +
    "again, enable it (`POST /webhook_endpoints/{id}/enable`): the same id and secret, events from then on.",
});

export const WebhookEndpoint = z
  .object({
    id: WebhookEndpointId,
    url: z.string(),
    events: z.array(WebhookEventType),
    description: z.string().optional(),
    status: WebhookEndpointStatus,
    disabled_at: DateTime.optional(),
    disabled_reason: z.string().optional(),
    created_at: DateTime,
  })
  .meta({
    id: "WebhookEndpoint",
    description: "An endpoint of the calling key's account and mode (live and test keys have separate endpoints).",
  });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: WebhookSecret }).meta({
  id: "WebhookEndpointWithSecret",
  description: "The endpoint with its signing secret: only in the answer that created the endpoint or rotated its secret.",
});
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointsList = z
  .object({ endpoints: z.array(WebhookEndpoint).max(PAGE_SIZE.max), pagination: Pagination })
  .meta({ id: "WebhookEndpointsList" });
export type WebhookEndpointsList = z.infer<typeof WebhookEndpointsList>;

export const WebhookEndpointDeleted = z.object({ id: WebhookEndpointId, deleted: z.literal(true) }).meta({ id: "WebhookEndpointDeleted" });
export type WebhookEndpointDeleted = z.infer<typeof WebhookEndpointDeleted>;

export const WebhookTestSent = z
  .object({ event_id: WebhookEventId, endpoint_id: WebhookEndpointId, type: z.literal("webhook.test") })
  .meta({
    id: "WebhookTestSent",
    description: "The `webhook.test` event was queued for the endpoint; its attempts show in the deliveries.",
  });
export type WebhookTestSent = z.infer<typeof WebhookTestSent>;

/** One delivery attempt, as `GET /webhook_endpoints/{id}/deliveries` lists them (newest first). */
export const WebhookDeliveryAttempt = z
  .object({
    event_id: WebhookEventId,
    event_type: DeliveredEventType,
    attempt: z.number().int().min(1).meta({ description: "1 for the first attempt of this event to this endpoint." }),
    attempted_at: DateTime,
    outcome: z.enum(["delivered", "failed"]),
    status_code: z.number().int().optional().meta({ description: "The endpoint's HTTP status, when it answered." }),
    error: z.string().optional().meta({ description: "Why no HTTP answer counted (time-out, connection refused, address refused...)." }),
    duration_ms: z.number().int().min(0),
    next_retry_at: DateTime.optional().meta({ description: "When the event is tried again (failed attempts that will be retried)." }),
  })
  .meta({ id: "WebhookDeliveryAttempt" });
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookDeliveriesList = z
  .object({ deliveries: z.array(WebhookDeliveryAttempt).max(PAGE_SIZE.max), pagination: Pagination })
  .meta({ id: "WebhookDeliveriesList" });
export type WebhookDeliveriesList = z.infer<typeof WebhookDeliveriesList>;

export const WebhookEndpointIdParams = z.object({ id: WebhookEndpointId });
export const WebhookListQuery = z.strictObject(PAGE_QUERY_FIELDS).meta({ id: "WebhookListQuery" });
export type WebhookListQuery = z.output<typeof WebhookListQuery>;

/**
 * What an endpoint receives: the body of every POST (`webhook-id` is `id`, the same on every
 * attempt). `data` is the filing as `GET /filings/{filing_id}` shows it (a test key's: the sandbox
 * filing); `webhook.test` carries a note instead.
 */
export const WebhookTestData = z.object({ endpoint_id: WebhookEndpointId, message: z.string() }).meta({ id: "WebhookTestData" });
export const WebhookEventPayload = z
  .object({
    id: WebhookEventId,
    type: DeliveredEventType,
    created_at: DateTime,
    data: z.union([Filing, SandboxFiling, WebhookTestData]),
  })
  .meta({ id: "WebhookEvent" });
export type WebhookEventPayload = z.infer<typeof WebhookEventPayload>;
