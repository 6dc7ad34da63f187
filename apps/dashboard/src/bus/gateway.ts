import { type RpcCallingBus, rpcClient } from "@dormant/bus";
import { type ApiKeySummary, type CreatedApiKey, GATEWAY_RPC_CATALOG, type GatewayAccount } from "@dormant/contracts";
import { dashboardRpcErrors } from "./unavailable.ts";

/** The account or key is unknown, or belongs to another account (the gateway never tells them apart). */
export class GatewayNotFoundError extends Error {
  constructor() {
    super("not found");
    this.name = "GatewayNotFoundError";
  }
}

export type GatewayBus = RpcCallingBus<typeof GATEWAY_RPC_CATALOG>;

/**
 * The gateway's accounts and keys, through its RPCs on gateway.rpc (never its tables). NOT_FOUND
 * is GatewayNotFoundError; a refused name or a key-change limit is the gateway's AppError; the
 * gateway out of reach is ServiceUnavailableError.
 */
export class GatewayClient {
  private readonly rpc;

  constructor(bus: GatewayBus) {
    this.rpc = rpcClient(
      bus,
      GATEWAY_RPC_CATALOG,
      dashboardRpcErrors("gateway", {
        passCodes: ["VALIDATION_ERROR", "RATE_LIMIT_EXCEEDED"],
        mapped: { NOT_FOUND: () => new GatewayNotFoundError() },
      }),
    );
  }

  createAccount(requestId: string, name: string): Promise<GatewayAccount> {
    return this.rpc("gateway.create_account", { request_id: requestId, name });
  }

  getAccount(accountId: string): Promise<GatewayAccount> {
    return this.rpc("gateway.get_account", { account_id: accountId });
  }

  enableApiAccess(accountId: string): Promise<GatewayAccount> {
    return this.rpc("gateway.enable_api_access", { account_id: accountId });
  }

  async listKeys(accountId: string): Promise<ApiKeySummary[]> {
    return (await this.rpc("gateway.list_keys", { account_id: accountId })).keys;
  }

  createKey(accountId: string, mode: "live" | "test", name: string): Promise<CreatedApiKey> {
    return this.rpc("gateway.create_key", { account_id: accountId, mode, name });
  }

  revokeKey(accountId: string, keyId: string): Promise<ApiKeySummary> {
    return this.rpc("gateway.revoke_key", { account_id: accountId, key_id: keyId });
  }
}
