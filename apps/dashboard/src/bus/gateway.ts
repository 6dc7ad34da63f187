import type { Bus } from "@dormant/bus";
import {
  type ApiKeySummary,
  AppError,
  type CreatedApiKey,
  type GATEWAY_RPC_CATALOG,
  GATEWAY_RPC_QUEUE,
  type GatewayAccount,
} from "@dormant/contracts";

/** The gateway is unreachable (no server, time-out, broker down): the page says so with a 503. */
export class GatewayUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the gateway did not answer", { cause });
    this.name = "GatewayUnavailableError";
  }
}

/** The account or key is unknown, or belongs to another account (the gateway never tells them apart). */
export class GatewayNotFoundError extends Error {
  constructor() {
    super("not found");
    this.name = "GatewayNotFoundError";
  }
}

export type GatewayBus = Pick<Bus<Record<string, never>, typeof GATEWAY_RPC_CATALOG>, "rpcCall">;

/** The gateway's accounts and keys, through its RPCs on gateway.rpc (never its tables). */
export class GatewayClient {
  constructor(private readonly bus: GatewayBus) {}

  private async call<T extends keyof typeof GATEWAY_RPC_CATALOG & string>(
    type: T,
    payload: Parameters<GatewayBus["rpcCall"]>[2] & object,
  ): Promise<unknown> {
    try {
      return await this.bus.rpcCall(GATEWAY_RPC_QUEUE, type, payload as never);
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND") throw new GatewayNotFoundError();
      if (error instanceof AppError && (error.code === "VALIDATION_ERROR" || error.code === "RATE_LIMIT_EXCEEDED")) throw error;
      throw new GatewayUnavailableError(error);
    }
  }

  async createAccount(requestId: string, name: string): Promise<GatewayAccount> {
    return (await this.call("gateway.create_account", { request_id: requestId, name })) as GatewayAccount;
  }

  async getAccount(accountId: string): Promise<GatewayAccount> {
    return (await this.call("gateway.get_account", { account_id: accountId })) as GatewayAccount;
  }

  async enableApiAccess(accountId: string): Promise<GatewayAccount> {
    return (await this.call("gateway.enable_api_access", { account_id: accountId })) as GatewayAccount;
  }

  async listKeys(accountId: string): Promise<ApiKeySummary[]> {
    return ((await this.call("gateway.list_keys", { account_id: accountId })) as { keys: ApiKeySummary[] }).keys;
  }

  async createKey(accountId: string, mode: "live" | "test", name: string): Promise<CreatedApiKey> {
    return (await this.call("gateway.create_key", { account_id: accountId, mode, name })) as CreatedApiKey;
  }

  async revokeKey(accountId: string, keyId: string): Promise<ApiKeySummary> {
    return (await this.call("gateway.revoke_key", { account_id: accountId, key_id: keyId })) as ApiKeySummary;
  }
}
