import { z } from "zod";
import {
  CreateWebhookEndpointRequest,
  WebhookDeliveriesList,
  WebhookEndpoint,
  WebhookEndpointDeleted,
  WebhookEndpointId,
  WebhookEndpointsList,
  WebhookEndpointWithSecret,
  WebhookEventPayload,
  WebhookTestSent,
} from "../api/webhooks.ts";
import { PAGE_SIZE } from "../api/filings-list.ts";

/**
 * The notifier (apps/notifier): webhook endpoints over RPC on `notifier.rpc` (the gateway's
 * `/webhook_endpoints` routes and the admin CLI), the events it delivers from its own queue
 * `notifier.events` (bound to `filing.events`, plus the gateway's sandbox events), and its own
 * delivery commands on `notifier.deliveries` (live mode) and `notifier.test_deliveries` (test
 * mode: sandbox events and "Send test", consumed apart with a prefetch of their own so that they
 * never delay live deliveries), retried through the bus's delay queues.
 */
export const NOTIFIER_RPC_QUEUE = "notifier.rpc";
export const NOTIFIER_EVENTS_QUEUE = "notifier.events";
export const NOTIFIER_DELIVERIES_QUEUE = "notifier.deliveries";
export const NOTIFIER_TEST_DELIVERIES_QUEUE = "notifier.test_deliveries";

/** Whose endpoints: an account's, in one key mode (live and test keys have separate endpoints). */
export const WebhookCaller = z.object({
  account_id: z.string().min(1).max(100),
  mode: z.enum(["live", "test"]),
  request_id: z.string().min(1).max(200),
});
export type WebhookCaller = z.infer<typeof WebhookCaller>;

const Page = { limit: z.number().int().min(1).max(PAGE_SIZE.max), offset: z.number().int().min(0) };

export const CreateEndpointRpcRequest = z.object({ caller: WebhookCaller, endpoint: CreateWebhookEndpointRequest });
export const EndpointRpcRequest = z.object({ caller: WebhookCaller, endpoint_id: WebhookEndpointId });
export const ListEndpointsRpcRequest = z.object({ caller: WebhookCaller, ...Page });
export const ListDeliveriesRpcRequest = z.object({ caller: WebhookCaller, endpoint_id: WebhookEndpointId, ...Page });

/**
 * `notifier.sandbox_event`: a test key's sandbox submit, sent by the gateway so that the key's
 * test endpoints receive the sandbox outcome at once (the sandbox stores nothing: the event is
 * whole, its id derived from the sandbox filing id and its type).
 */
export const SandboxWebhookEvent = z.object({ account_id: z.string().min(1).max(100), event: WebhookEventPayload });
export type SandboxWebhookEvent = z.infer<typeof SandboxWebhookEvent>;

/**
 * `notifier.deliver`: try one delivery (one event to one endpoint) when it is due. The notifier
 * sends these to itself; a retry is the same command again, delayed through the bus's wait tiers
 * (a wait longer than the longest tier is taken in several hops, each checking `due_at`).
 * `notifier.deliver` carries live-mode deliveries, `notifier.deliver_test` test-mode ones (the
 * same command on a queue of its own).
 */
export const DeliverWebhookCommand = z.object({
  delivery_id: z.string().regex(/^wd_[A-Za-z0-9]{16,32}$/),
  /** Not before this instant (absent: now). */
  due_at: z.iso.datetime({ offset: true }).optional(),
});
export type DeliverWebhookCommand = z.infer<typeof DeliverWebhookCommand>;

/** The notifier's RPCs (the gateway and the admin CLI call them). */
export const NOTIFIER_RPC_CATALOG = {
  "notifier.create_endpoint": {
    queue: NOTIFIER_RPC_QUEUE,
    request: CreateEndpointRpcRequest,
    response: WebhookEndpointWithSecret,
    schemaVersion: 1,
    // The URL's host is resolved to check its addresses.
    timeoutMs: 10_000,
  },
  "notifier.list_endpoints": {
    queue: NOTIFIER_RPC_QUEUE,
    request: ListEndpointsRpcRequest,
    response: WebhookEndpointsList,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "notifier.get_endpoint": {
    queue: NOTIFIER_RPC_QUEUE,
    request: EndpointRpcRequest,
    response: WebhookEndpoint,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "notifier.delete_endpoint": {
    queue: NOTIFIER_RPC_QUEUE,
    request: EndpointRpcRequest,
    response: WebhookEndpointDeleted,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "notifier.rotate_secret": {
    queue: NOTIFIER_RPC_QUEUE,
    request: EndpointRpcRequest,
    response: WebhookEndpointWithSecret,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "notifier.enable_endpoint": {
    queue: NOTIFIER_RPC_QUEUE,
    request: EndpointRpcRequest,
    response: WebhookEndpoint,
    schemaVersion: 1,
    // The URL's host is resolved to check its addresses again.
    timeoutMs: 10_000,
  },
  "notifier.send_test": {
    queue: NOTIFIER_RPC_QUEUE,
    request: EndpointRpcRequest,
    response: WebhookTestSent,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "notifier.list_deliveries": {
    queue: NOTIFIER_RPC_QUEUE,
    request: ListDeliveriesRpcRequest,
    response: WebhookDeliveriesList,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
} as const;
