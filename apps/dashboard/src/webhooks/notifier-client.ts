import { randomUUID } from "node:crypto";
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
import { dashboardRpcErrors } from "../bus/unavailable.ts";

/** The notifier RPCs the dashboard calls (and only those). */
export const DASHBOARD_NOTIFIER_RPC_CATALOG = {
  "notifier.create_endpoint": NOTIFIER_RPC_CATALOG["notifier.create_endpoint"],
  "notifier.list_endpoints": NOTIFIER_RPC_CATALOG["notifier.list_endpoints"],
  "notifier.get_endpoint": NOTIFIER_RPC_CATALOG["notifier.get_endpoint"],
  "notifier.delete_endpoint": NOTIFIER_RPC_CATALOG["notifier.delete_endpoint"],
  "notifier.rotate_secret": NOTIFIER_RPC_CATALOG["notifier.rotate_secret"],
  "notifier.enable_endpoint": NOTIFIER_RPC_CATALOG["notifier.enable_endpoint"],
  "notifier.send_test": NOTIFIER_RPC_CATALOG["notifier.send_test"],
  "notifier.list_deliveries": NOTIFIER_RPC_CATALOG["notifier.list_deliveries"],
} as const;

export type WebhookMode = WebhookCaller["mode"];

/** The endpoint is unknown, deleted, or another account's or mode's (the notifier never tells them apart). */
export class WebhookEndpointNotFoundError extends Error {
  constructor() {
    super("webhook endpoint not found");
    this.name = "WebhookEndpointNotFoundError";
  }
}

export type NotifierBus = RpcCallingBus<typeof DASHBOARD_NOTIFIER_RPC_CATALOG>;

export interface Page {
  limit: number;
  offset: number;
}

/**
 * An account's webhook endpoints, through the notifier's RPCs on notifier.rpc (never its
 * tables). Every call names the caller: the signed-in account and a key mode. A signing secret is
 * only in createEndpoint's and rotateSecret's answers: the caller shows it once and keeps it nowhere.
 * An unknown endpoint is WebhookEndpointNotFoundError, a refused URL the notifier's
 * VALIDATION_ERROR, the notifier out of reach ServiceUnavailableError.
 */
export class NotifierClient {
  private readonly rpc;

  constructor(bus: NotifierBus) {
    this.rpc = rpcClient(
      bus,
      DASHBOARD_NOTIFIER_RPC_CATALOG,
      dashboardRpcErrors("notifier", {
        passCodes: ["VALIDATION_ERROR"],
        mapped: { WEBHOOK_ENDPOINT_NOT_FOUND: () => new WebhookEndpointNotFoundError() },
      }),
    );
  }

  private caller(accountId: string, mode: WebhookMode): WebhookCaller {
    return { account_id: accountId, mode, request_id: `dashboard-${randomUUID()}` };
  }

  createEndpoint(accountId: string, mode: WebhookMode, endpoint: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret> {
    return this.rpc("notifier.create_endpoint", { caller: this.caller(accountId, mode), endpoint });
  }

  listEndpoints(accountId: string, mode: WebhookMode, page: Page): Promise<WebhookEndpointsList> {
    return this.rpc("notifier.list_endpoints", { caller: this.caller(accountId, mode), ...page });
  }

  getEndpoint(accountId: string, mode: WebhookMode, endpointId: string): Promise<WebhookEndpoint> {
    return this.rpc("notifier.get_endpoint", { caller: this.caller(accountId, mode), endpoint_id: endpointId });
  }

  deleteEndpoint(accountId: string, mode: WebhookMode, endpointId: string): Promise<WebhookEndpointDeleted> {
    return this.rpc("notifier.delete_endpoint", { caller: this.caller(accountId, mode), endpoint_id: endpointId });
  }

  /** A new signing secret; the previous one still signs beside it for the notifier's overlap (24 h by default). */
  rotateSecret(accountId: string, mode: WebhookMode, endpointId: string): Promise<WebhookEndpointWithSecret> {
    return this.rpc("notifier.rotate_secret", { caller: this.caller(accountId, mode), endpoint_id: endpointId });
  }

  /** A disabled endpoint back in service (its URL checked again: VALIDATION_ERROR when now refused). */
  enableEndpoint(accountId: string, mode: WebhookMode, endpointId: string): Promise<WebhookEndpoint> {
    return this.rpc("notifier.enable_endpoint", { caller: this.caller(accountId, mode), endpoint_id: endpointId });
  }

  sendTest(accountId: string, mode: WebhookMode, endpointId: string): Promise<WebhookTestSent> {
    return this.rpc("notifier.send_test", { caller: this.caller(accountId, mode), endpoint_id: endpointId });
  }

  listDeliveries(accountId: string, mode: WebhookMode, endpointId: string, page: Page): Promise<WebhookDeliveriesList> {
    return this.rpc("notifier.list_deliveries", { caller: this.caller(accountId, mode), endpoint_id: endpointId, ...page });
  }
}
