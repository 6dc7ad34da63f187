import type { RpcHandlerMap } from "@dormant/bus";
import type { GATEWAY_RPC_CATALOG } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { GatewayDb } from "../db/client.ts";
import { asServiceUnavailable } from "../db/unavailable.ts";
import type { SecretHasher } from "../keys/hash.ts";
import type { RateLimiter } from "../rate-limit/limiter.ts";
import type { KeyChangeLimits } from "../rate-limit/limits.ts";
import { rateLimitExceeded } from "../rate-limit/refusal.ts";
import { getGatewayAccount } from "./account-view.ts";
import { createGatewayAccount, type OpenAccountBus } from "./create-account.ts";
import { createApiKey } from "./create-key.ts";
import { enableApiAccess } from "./enable-api-access.ts";
import { listApiKeys } from "./list-keys.ts";
import { revokeAccountKey } from "./revoke-key.ts";
import { sandboxFilingForAccount, sandboxOverview } from "./sandbox.ts";

export interface GatewayRpcDeps {
  db: GatewayDb;
  /** Counts key creations and revocations per account (the limits of `keyChangeLimits`). */
  limiter: RateLimiter;
  keyChangeLimits: KeyChangeLimits;
  /** The bus the gateway calls billing on. */
  bus: OpenAccountBus;
  hasher: SecretHasher;
  logger: Logger;
}

/**
 * `gateway.rpc`: the accounts and keys the gateway owns, for the account dashboard. Refusals are
 * AppErrors (NOT_FOUND, VALIDATION_ERROR); a failing database is a retryable SERVICE_UNAVAILABLE,
 * its cause only in this log. Secrets are never logged.
 */
export function gatewayRpcHandlers(deps: GatewayRpcDeps): RpcHandlerMap<typeof GATEWAY_RPC_CATALOG, "gateway.rpc"> {
  const { db, logger } = deps;
  const guarded = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      const answer = asServiceUnavailable(error);
      if (answer !== error) logger.error({ err: error }, `${what} failed`);
      throw answer;
    }
  };
  /** Counts one key change of the account; RATE_LIMIT_EXCEEDED (with its retry time) past the limit. */
  const limitKeyChanges = async (change: "create" | "revoke", accountId: string): Promise<void> => {
    const decision = await deps.limiter.consume(`key-${change}:${accountId}`, deps.keyChangeLimits[change]);
    if (!decision.allowed) {
      logger.warn({ account_id: accountId, change }, "key changes over the account's limit: refused");
      throw rateLimitExceeded(decision, `key-${change}`);
    }
  };
  return {
    "gateway.create_account": (request) =>
      guarded("gateway.create_account", async () => {
        const account = await createGatewayAccount(deps, request);
        logger.info({ account_id: account.account_id }, "account created for the dashboard");
        return account;
      }),
    "gateway.get_account": (request) => guarded("gateway.get_account", () => getGatewayAccount(db, request.account_id)),
    "gateway.enable_api_access": (request) =>
      guarded("gateway.enable_api_access", async () => {
        const account = await enableApiAccess(db, request.account_id);
        logger.info({ account_id: account.account_id }, "API access enabled");
        return account;
      }),
    "gateway.list_keys": (request) => guarded("gateway.list_keys", () => listApiKeys(db, request.account_id)),
    "gateway.create_key": (request) =>
      guarded("gateway.create_key", async () => {
        await limitKeyChanges("create", request.account_id);
        const created = await createApiKey(db, request, deps.hasher);
        logger.info({ account_id: request.account_id, key_id: created.key.key_id, mode: created.key.mode }, "API key created");
        return created;
      }),
    "gateway.revoke_key": (request) =>
      guarded("gateway.revoke_key", async () => {
        await limitKeyChanges("revoke", request.account_id);
        const revoked = await revokeAccountKey(db, request);
        logger.info({ account_id: request.account_id, key_id: revoked.key_id }, "API key revoked");
        return revoked;
      }),
    "gateway.sandbox_filing": (request) => guarded("gateway.sandbox_filing", () => sandboxFilingForAccount(db, request)),
    "gateway.sandbox_overview": (request) => guarded("gateway.sandbox_overview", () => sandboxOverview(db, request.account_id)),
  };
}
