import { AppError, type CreateApiKeyRequest, type CreatedApiKey } from "@dormant/contracts";
import type { GatewayDb } from "../db/client.ts";
import type { SecretHasher } from "../keys/hash.ts";
import { issueApiKey } from "../keys/issue.ts";
import { API_KEY_SUMMARY_SELECT, toApiKeySummary } from "../keys/summary.ts";
import { accountNotFound } from "./not-found.ts";

/** Unrevoked keys one account may hold at a time: plenty for rotation, not a key per request. */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 20;

/**
 * gateway.create_key: a named key of `mode` for an account with API access enabled. The secret
 * (the whole key) is in this answer only; the database keeps its hash.
 */
export async function createApiKey(db: GatewayDb, request: CreateApiKeyRequest, hasher: SecretHasher): Promise<CreatedApiKey> {
  return db.$transaction(async (tx) => {
    // The row lock serialises key creation per account, so the cap holds under concurrent calls.
    const [account] = await tx.$queryRaw<Array<{ api_access_enabled: boolean }>>`
      SELECT api_access_enabled FROM accounts WHERE id = ${request.account_id} FOR UPDATE`;
    if (!account) throw accountNotFound();
    if (!account.api_access_enabled) {
      throw new AppError("VALIDATION_ERROR", "API access is not enabled for this account", {
        details: [{ field: "account_id", message: "enable API access for this account before creating keys" }],
      });
    }
    const active = await tx.apiKey.count({ where: { accountId: request.account_id, revokedAt: null } });
    if (active >= MAX_ACTIVE_KEYS_PER_ACCOUNT) {
      throw new AppError("VALIDATION_ERROR", `An account may have at most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} keys that are not revoked`, {
        details: [{ field: "account_id", message: `revoke a key first: ${active} of ${MAX_ACTIVE_KEYS_PER_ACCOUNT} in use` }],
      });
    }
    const issued = await issueApiKey(tx, { accountId: request.account_id, mode: request.mode, name: request.name }, hasher);
    const row = await tx.apiKey.findUniqueOrThrow({ where: { keyId: issued.keyId }, select: API_KEY_SUMMARY_SELECT });
    return { key: toApiKeySummary(row), secret: issued.apiKey };
  });
}
