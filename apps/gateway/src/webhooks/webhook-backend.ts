import { type RpcCallingBus, rpcClient } from "@dormant/bus";
import {
  type CreateWebhookEndpointRequest,
  NOTIFIER_RPC_CATALOG,
  type WebhookCaller,
  type WebhookDeliveriesList,
  type WebhookEndpoint,
  type WebhookEndpointDeleted,
  type WebhookEndpointsList,
  type WebhookEndpointWithSecret,
  type WebhookTestSent,
} from "@dormant/contracts";
import { publicBusError } from "../bus/public-bus-error.ts";

/** What the webhook routes need of the bus: the notifier's RPCs on `notifier.rpc`. */
export type NotifierRpcBus = RpcCallingBus<typeof NOTIFIER_RPC_CATALOG>;

export interface Page {
  limit: number;
  offset: number;
}

/**
 * The webhook endpoints of one caller: an account in one key mode (live and test keys have
 * separate endpoints). Every method is one notifier RPC.
 */
export interface WebhookBackend {
  createEndpoint(caller: WebhookCaller, endpoint: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret>;
  listEndpoints(caller: WebhookCaller, page: Page): Promise<WebhookEndpointsList>;
  getEndpoint(caller: WebhookCaller, endpointId: string): Promise<WebhookEndpoint>;
  deleteEndpoint(caller: WebhookCaller, endpointId: string): Promise<WebhookEndpointDeleted>;
  rotateSecret(caller: WebhookCaller, endpointId: string): Promise<WebhookEndpointWithSecret>;
  enableEndpoint(caller: WebhookCaller, endpointId: string): Promise<WebhookEndpoint>;
  sendTest(caller: WebhookCaller, endpointId: string): Promise<WebhookTestSent>;
  listDeliveries(caller: WebhookCaller, endpointId: string, page: Page): Promise<WebhookDeliveriesList>;
}

/**
 * The notifier owns the endpoints and their deliveries; the gateway asks it over `notifier.rpc`
 * (the catalog's time-outs). The notifier out of reach is 503 SERVICE_UNAVAILABLE with
 * Retry-After, as for the filing service; its own errors (WEBHOOK_ENDPOINT_NOT_FOUND,
 * VALIDATION_ERROR on the URL) pass through unchanged.
 */
export function createBusWebhookBackend({ bus }: { bus: NotifierRpcBus }): WebhookBackend {
  const call = rpcClient(bus, NOTIFIER_RPC_CATALOG, (error) => publicBusError(error, "webhook service"));
  return {
    createEndpoint: (caller, endpoint) => call("notifier.create_endpoint", { caller, endpoint }),
    listEndpoints: (caller, page) => call("notifier.list_endpoints", { caller, ...page }),
    getEndpoint: (caller, endpointId) => call("notifier.get_endpoint", { caller, endpoint_id: endpointId }),
    deleteEndpoint: (caller, endpointId) => call("notifier.delete_endpoint", { caller, endpoint_id: endpointId }),
    rotateSecret: (caller, endpointId) => call("notifier.rotate_secret", { caller, endpoint_id: endpointId }),
    enableEndpoint: (caller, endpointId) => call("notifier.enable_endpoint", { caller, endpoint_id: endpointId }),
    sendTest: (caller, endpointId) => call("notifier.send_test", { caller, endpoint_id: endpointId }),
    listDeliveries: (caller, endpointId, page) => call("notifier.list_deliveries", { caller, endpoint_id: endpointId, ...page }),
  };
}
