import type { ApiKeySummary, RevokeApiKeyRequest } from "@dormant/contracts";
import type { GatewayDb } from "../db/client.ts";
import { revokeApiKey } from "../keys/revoke.ts";
import { API_KEY_SUMMARY_SELECT, toApiKeySummary } from "../keys/summary.ts";
import { keyNotFound } from "./not-found.ts";

/**
 * gateway.revoke_key: idempotent (a revoked key answers with its first revocation time). A key of
 * another account is NOT_FOUND, exactly as an unknown one. Gateways stop accepting it within the
 * key cache TTL (`API_KEY_CACHE_TTL_MS`, 5 s by default).
 */
export async function revokeAccountKey(db: GatewayDb, request: RevokeApiKeyRequest): Promise<ApiKeySummary> {
  const revoked = await revokeApiKey(db, request.key_id, request.account_id);
  if (!revoked) throw keyNotFound();
  return toApiKeySummary(await db.apiKey.findUniqueOrThrow({ where: { keyId: revoked.keyId }, select: API_KEY_SUMMARY_SELECT }));
}
