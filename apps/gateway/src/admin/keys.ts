import type { GatewayDb } from "../db/client.ts";
import type { ApiKeyMode } from "../keys/format.ts";
import type { SecretHasher } from "../keys/hash.ts";
import { issueApiKey } from "../keys/issue.ts";
import { apiKeyPrefix } from "../keys/summary.ts";

export interface OperatorKey {
  account_id: string;
  key_id: string;
  mode: ApiKeyMode;
  name: string | null;
  prefix: string;
  /** The whole key: printed this once, only its hash is stored. */
  api_key: string;
}

/**
 * `admin create-key`: a new key for an existing account (rotation keeps the account and its
 * balance). An operator handing out a key grants API access, so the account's flag is switched on
 * in the same transaction; the dashboard's cap on unrevoked keys does not apply. Null for an
 * unknown account.
 */
export async function createOperatorKey(
  db: GatewayDb,
  input: { accountId: string; mode: ApiKeyMode; name?: string },
  hasher: SecretHasher,
): Promise<OperatorKey | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.account.updateMany({ where: { id: input.accountId }, data: { apiAccessEnabled: true } });
    if (count === 0) return null;
    const name = input.name ?? null;
    const issued = await issueApiKey(tx, { accountId: input.accountId, mode: input.mode, name }, hasher);
    return {
      account_id: input.accountId,
      key_id: issued.keyId,
      mode: input.mode,
      name,
      prefix: apiKeyPrefix(input.mode, issued.keyId),
      api_key: issued.apiKey,
    };
  });
}
