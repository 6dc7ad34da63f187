import type { GatewayDb } from "../db/client.ts";

/**
 * Marks a key revoked (idempotent: a second call keeps the first time). Replicas stop accepting
 * it within the verification cache TTL. Null when no key has that id.
 */
export async function revokeApiKey(db: GatewayDb, keyId: string): Promise<{ keyId: string; revokedAt: Date } | null> {
  await db.apiKey.updateMany({ where: { keyId, revokedAt: null }, data: { revokedAt: new Date() } });
  const key = await db.apiKey.findUnique({ where: { keyId }, select: { keyId: true, revokedAt: true } });
  if (!key?.revokedAt) return null;
  return { keyId: key.keyId, revokedAt: key.revokedAt };
}
