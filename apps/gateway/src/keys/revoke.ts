import type { GatewayDb } from "../db/client.ts";

/**
 * Marks a key revoked (idempotent: a second call keeps the first time). Replicas stop accepting
 * it within the verification cache TTL (`API_KEY_CACHE_TTL_MS`, 5 s by default). With
 * `accountId`, only that account's key is revoked. Null when no key has that id (of that account).
 */
export async function revokeApiKey(db: GatewayDb, keyId: string, accountId?: string): Promise<{ keyId: string; revokedAt: Date } | null> {
  const owner = accountId === undefined ? {} : { accountId };
  await db.apiKey.updateMany({ where: { keyId, ...owner, revokedAt: null }, data: { revokedAt: new Date() } });
  const key = await db.apiKey.findFirst({ where: { keyId, ...owner }, select: { keyId: true, revokedAt: true } });
  if (!key?.revokedAt) return null;
  return { keyId: key.keyId, revokedAt: key.revokedAt };
}
