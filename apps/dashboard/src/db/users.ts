import { randomId } from "../auth/tokens.ts";
import type { DashboardDb } from "./client.ts";

export interface UserRow {
  id: string;
  email: string;
  passwordHash: string | null;
  accountId: string;
}

/** Trimmed and lower-case: the one form of an email that is stored, looked up and rate-limited. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DashboardDb, email: string): Promise<UserRow | null> {
  return db.prisma.user.findUnique({ where: { email: normaliseEmail(email) } });
}

/** Inserts a user; null when the email is taken (the unique index decides, not a prior read). */
export async function insertUser(
  db: DashboardDb,
  user: { email: string; passwordHash: string | null; accountId: string },
): Promise<UserRow | null> {
  const result = await db.pool.query<{ id: string }>(
    `INSERT INTO users (id, email, password_hash, account_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING id`,
    [randomId("usr_"), normaliseEmail(user.email), user.passwordHash, user.accountId],
  );
  const id = result.rows[0]?.id;
  return id ? { id, email: normaliseEmail(user.email), passwordHash: user.passwordHash, accountId: user.accountId } : null;
}
