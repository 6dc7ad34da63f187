import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import {
  CreateWebhookEndpointRequest,
  MAX_WEBHOOK_ENDPOINTS_PER_MODE,
  successEnvelope,
  type WebhookCaller,
  WebhookDeliveriesList,
  WebhookEndpoint,
  WebhookEndpointDeleted,
  WebhookEndpointIdParams,
  WebhookEndpointsList,
  WebhookEndpointWithSecret,
  WebhookListQuery,
  WebhookTestSent,
} from "@dormant/contracts";
import type { Response } from "express";
import type { z } from "zod";
import { requireAuth } from "../auth/context.ts";
import { sendData } from "../http/envelope.ts";
import { requestIdOf } from "../http/request-id.ts";
import { API_KEY_SECURITY, type ErrorDescriptions, errorResponses, jsonResponse } from "../openapi/responses.ts";
import type { WebhookBackend } from "../webhooks/webhook-backend.ts";
import { defineRoute, type Route } from "./route.ts";

/**
 * The webhook endpoints (issue 14): each route is one notifier RPC for the calling key's account
 * in the key's mode (live and test keys have separate endpoints). The notifier owns the endpoints;
 * the gateway authenticates, limits, validates and forwards.
 */

/** Whose endpoints: the key's account and mode, and the request id that travels with the RPC. */
function webhookCaller(res: Response): WebhookCaller {
  const auth = requireAuth(res);
  return { account_id: auth.accountId, mode: auth.mode, request_id: requestIdOf(res) };
}

const TAGS = ["Webhooks"];

const ERRORS: ErrorDescriptions = {
  400: "`VALIDATION_ERROR`: `details` lists every violated field by path (an endpoint id that is not `we_...`, a page out of range, a `url` refused with the reason, or the endpoints-per-mode limit reached on create).",
  404: "`WEBHOOK_ENDPOINT_NOT_FOUND`: no endpoint with this id for this key's account and mode (live and test keys have separate endpoints).",
};

const MODES =
  "Live and test keys have separate endpoints: a test key's endpoints receive its sandbox events, a live key's the live filings' events.";

/** An operation of /webhook_endpoints: the key, tag and error wording they share. */
function webhookOperation({
  status,
  answer,
  data,
  errors,
  ...operation
}: Pick<RouteConfig, "method" | "path" | "operationId" | "summary" | "description"> & {
  status: 200 | 201 | 202;
  answer: string;
  data: z.ZodType;
  errors: readonly number[];
}): Omit<RouteConfig, "request"> {
  return {
    ...operation,
    tags: TAGS,
    security: API_KEY_SECURITY,
    responses: {
      [status]: jsonResponse(answer, successEnvelope(data), { authenticated: true }),
      ...errorResponses(errors, { authenticated: true, descriptions: ERRORS }),
    },
  };
}

/**
 * A route about one endpoint that reads nothing but its id (`/webhook_endpoints/{id}...`): its
 * operation, with the errors they all share, and the notifier call that answers it.
 */
function oneEndpointRoute(spec: {
  kind: "read" | "action";
  operation: Omit<Parameters<typeof webhookOperation>[0], "errors">;
  call(webhooks: WebhookBackend, caller: WebhookCaller, endpointId: string): Promise<unknown>;
}): Route {
  return defineRoute({
    kind: spec.kind,
    openapi: webhookOperation({ ...spec.operation, errors: [400, 401, 404, 429, 503] }),
    request: { params: WebhookEndpointIdParams },
    async handle({ params }, { res, deps }) {
      sendData(res, spec.operation.status, await spec.call(deps.webhooks, webhookCaller(res), params.id));
    },
  });
}

/** `POST /webhook_endpoints`: registers an endpoint; the only answer but rotate_secret with its secret. */
export const createWebhookEndpointRoute = defineRoute({
  kind: "json",
  openapi: webhookOperation({
    method: "post",
    path: "/webhook_endpoints",
    operationId: "createWebhookEndpoint",
    summary: "Register a webhook endpoint",
    description:
      "An extension (issue 14). The endpoint receives the chosen events (`events`, default all: `filing.accepted`, `filing.rejected`, " +
      "`filing.errored`, `filing.documents_ready`) as signed POSTs (Standard Webhooks; see the `webhooks` section). The answer carries " +
      "the signing `secret` (`whsec_...`): store it, it is never shown again (rotate it to get a new one). `https` URLs in production; " +
      "a host that resolves to a loopback, private, link-local or cloud metadata address is refused (400 with the reason). " +
      `An account may have at most ${MAX_WEBHOOK_ENDPOINTS_PER_MODE} endpoints (not deleted) per mode: one more is 400 ` +
      "`VALIDATION_ERROR` with a `details` entry on `url` saying the limit is reached (delete an endpoint first). " +
      `${MODES} No Idempotency-Key.`,
    status: 201,
    answer: "The endpoint, with its signing secret (shown only here and when rotated).",
    data: WebhookEndpointWithSecret,
    errors: [400, 401, 413, 415, 429, 503],
  }),
  request: { body: CreateWebhookEndpointRequest },
  async handle({ body }, { res, deps }) {
    sendData(res, 201, await deps.webhooks.createEndpoint(webhookCaller(res), body));
  },
});

/** `GET /webhook_endpoints`: the caller's endpoints, paginated, without secrets. */
export const listWebhookEndpointsRoute = defineRoute({
  kind: "read",
  openapi: webhookOperation({
    method: "get",
    path: "/webhook_endpoints",
    operationId: "listWebhookEndpoints",
    summary: "List webhook endpoints",
    description: `The endpoints of the calling key's account and mode, with their status (never their secrets). ${MODES}`,
    status: 200,
    answer: "The endpoints.",
    data: WebhookEndpointsList,
    errors: [400, 401, 429, 503],
  }),
  request: { query: WebhookListQuery },
  async handle({ query }, { res, deps }) {
    sendData(res, 200, await deps.webhooks.listEndpoints(webhookCaller(res), query));
  },
});

/** `GET /webhook_endpoints/{id}`. */
export const getWebhookEndpointRoute = oneEndpointRoute({
  kind: "read",
  operation: {
    method: "get",
    path: "/webhook_endpoints/{id}",
    operationId: "getWebhookEndpoint",
    summary: "Get a webhook endpoint",
    description: `The endpoint (never its secret): \`status\` is \`disabled\`, with \`disabled_at\` and \`disabled_reason\`, once every delivery to it failed for 3 days. ${MODES}`,
    status: 200,
    answer: "The endpoint.",
    data: WebhookEndpoint,
  },
  call: (webhooks, caller, id) => webhooks.getEndpoint(caller, id),
});

/** `DELETE /webhook_endpoints/{id}`. */
export const deleteWebhookEndpointRoute = oneEndpointRoute({
  kind: "action",
  operation: {
    method: "delete",
    path: "/webhook_endpoints/{id}",
    operationId: "deleteWebhookEndpoint",
    summary: "Delete a webhook endpoint",
    description: `Nothing more is sent to the endpoint, retries included. No body, no Idempotency-Key: deleting it again is 404. ${MODES}`,
    status: 200,
    answer: "The endpoint was deleted.",
    data: WebhookEndpointDeleted,
  },
  call: (webhooks, caller, id) => webhooks.deleteEndpoint(caller, id),
});

/** `POST /webhook_endpoints/{id}/rotate_secret`: a new secret, shown once. */
export const rotateWebhookSecretRoute = oneEndpointRoute({
  kind: "action",
  operation: {
    method: "post",
    path: "/webhook_endpoints/{id}/rotate_secret",
    operationId: "rotateWebhookEndpointSecret",
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      "Replaces the endpoint's signing secret and answers the new one, shown only here; events are signed with it from now on. " +
      `No body, no Idempotency-Key. ${MODES}`,
    status: 200,
    answer: "The endpoint with its new signing secret.",
    data: WebhookEndpointWithSecret,
  },
  call: (webhooks, caller, id) => webhooks.rotateSecret(caller, id),
});

/** `POST /webhook_endpoints/{id}/enable`: a disabled endpoint back in service. */
export const enableWebhookEndpointRoute = oneEndpointRoute({
  kind: "action",
  operation: {
    method: "post",
    path: "/webhook_endpoints/{id}/enable",
    operationId: "enableWebhookEndpoint",
    summary: "Enable a disabled webhook endpoint again",
    description:
      "An endpoint whose deliveries all failed for 3 days is `disabled`. Once it works again, this enables it: the same id and " +
      "signing secret, its URL checked again (400 with the reason if it is now refused), and events from now on are delivered " +
      "(those cancelled while it was disabled are not sent). An endpoint already enabled is answered as it is. " +
      `No body, no Idempotency-Key. ${MODES}`,
    status: 200,
    answer: "The endpoint, enabled.",
    data: WebhookEndpoint,
  },
  call: (webhooks, caller, id) => webhooks.enableEndpoint(caller, id),
});

/** `POST /webhook_endpoints/{id}/test`: queues a `webhook.test` event to that endpoint. */
export const sendWebhookTestRoute = oneEndpointRoute({
  kind: "action",
  operation: {
    method: "post",
    path: "/webhook_endpoints/{id}/test",
    operationId: "sendWebhookTest",
    summary: "Send a test event to a webhook endpoint",
    description:
      "Sends a `webhook.test` event to this endpoint now, signed and retried like any other; its attempts show in the deliveries. " +
      `No body, no Idempotency-Key. ${MODES}`,
    status: 202,
    answer: "The test event was queued.",
    data: WebhookTestSent,
  },
  call: (webhooks, caller, id) => webhooks.sendTest(caller, id),
});

/** `GET /webhook_endpoints/{id}/deliveries`: recent attempts, newest first. */
export const listWebhookDeliveriesRoute = defineRoute({
  kind: "read",
  openapi: webhookOperation({
    method: "get",
    path: "/webhook_endpoints/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "List a webhook endpoint's delivery attempts",
    description:
      "The endpoint's recent delivery attempts, newest first: event id and type, when, the HTTP status or the network error, the " +
      `duration, and when a failed attempt is retried. ${MODES}`,
    status: 200,
    answer: "The attempts.",
    data: WebhookDeliveriesList,
    errors: [400, 401, 404, 429, 503],
  }),
  request: { params: WebhookEndpointIdParams, query: WebhookListQuery },
  async handle({ params, query }, { res, deps }) {
    sendData(res, 200, await deps.webhooks.listDeliveries(webhookCaller(res), params.id, query));
  },
});

export const WEBHOOK_ROUTES = [
  createWebhookEndpointRoute,
  listWebhookEndpointsRoute,
  getWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  rotateWebhookSecretRoute,
  enableWebhookEndpointRoute,
  sendWebhookTestRoute,
  listWebhookDeliveriesRoute,
] as const;
