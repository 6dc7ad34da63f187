import { hashToken, randomToken } from "../auth/tokens.ts";
import type { DashboardDb } from "./client.ts";

export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** A new one-time token for `userId` (only its hash is stored), valid for 24 hours. */
export async function createSetupToken(db: DashboardDb, userId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SETUP_TOKEN_TTL_MS);
  await db.prisma.passwordSetupToken.create({ data: { tokenHash: hashToken(token), userId, expiresAt } });
  return { token, expiresAt };
}

/** Whether `token` is known, unused and unexpired (the form is shown only then). */
export async function setupTokenIsUsable(db: DashboardDb, token: string): Promise<boolean> {
  const row = await db.prisma.passwordSetupToken.findUnique({ where: { tokenHash: hashToken(token) } });
  return row !== null && row.usedAt === null && row.expiresAt.getTime() > Date.now();
}

/**
 * Uses `token` once and sets the user's password, in one transaction: the UPDATE of an unused,
 * unexpired token is what makes it single-use, even for two submits at once. Returns the user
 * (id and account), or null when the token is unknown, used or expired.
 */
export async function useSetupToken(
  db: DashboardDb,
  token: string,
  passwordHash: string,
): Promise<{ userId: string; accountId: string } | null> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    const used = await client.query<{ user_id: string }>(
      `UPDATE password_setup_tokens SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [hashToken(token)],
    );
    const userId = used.rows[0]?.user_id;
    if (!userId) {
      await client.query("ROLLBACK");
      return null;
    }
    const user = await client.query<{ account_id: string }>("UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING account_id", [
      userId,
      passwordHash,
    ]);
    await client.query("COMMIT");
    const accountId = user.rows[0]?.account_id;
    return accountId ? { userId, accountId } : null;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
