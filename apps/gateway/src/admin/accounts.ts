import { z } from "zod";
import type { GatewayDb } from "../db/client.ts";
import type { SecretHasher } from "../keys/hash.ts";
import { issueApiKey } from "../keys/issue.ts";
import { randomBase62 } from "../keys/random.ts";

/** Bounds that keep every amount an exact JavaScript number (pence below 2^53). */
export const MAX_OPENING_BALANCE_PENCE = 10n ** 12n;
/** Ceilings on per-key limits: far above any agent, high enough for `npm run bench` on a fast machine, and within a Postgres INTEGER. */
export const MAX_RATE_PER_MINUTE = 10_000_000;
export const MAX_RATE_PER_DAY = 1_000_000_000;

export const CreateAccountInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  openingBalancePence: z.bigint().min(0n, "must not be negative").max(MAX_OPENING_BALANCE_PENCE, "is too large"),
  rateLimitPerMinute: z.number().int().min(1).max(MAX_RATE_PER_MINUTE).optional(),
  rateLimitPerDay: z.number().int().min(1).max(MAX_RATE_PER_DAY).optional(),
});
export type CreateAccountInput = z.input<typeof CreateAccountInput>;

export interface CreatedAccount {
  accountId: string;
  liveKey: string;
  testKey: string;
}

/**
 * Opens an account with its opening balance and optional limit overrides, and issues one live
 * and one test key, all in one transaction. The full keys are returned once and never stored.
 */
export async function createAccount(db: GatewayDb, input: CreateAccountInput, deps: { hasher: SecretHasher }): Promise<CreatedAccount> {
  const data = CreateAccountInput.parse(input);
  return db.$transaction(async (tx) => {
    const account = await tx.account.create({
      data: {
        id: `acc_${randomBase62(16)}`,
        name: data.name,
        openingBalancePence: data.openingBalancePence,
        rateLimitPerMinute: data.rateLimitPerMinute ?? null,
        rateLimitPerDay: data.rateLimitPerDay ?? null,
      },
    });
    const live = await issueApiKey(tx, { accountId: account.id, mode: "live" }, deps.hasher);
    const test = await issueApiKey(tx, { accountId: account.id, mode: "test" }, deps.hasher);
    return { accountId: account.id, liveKey: live.apiKey, testKey: test.apiKey };
  });
}

export interface AccountListing {
  account_id: string;
  name: string;
  opening_balance_pence: number;
  /** Null: the default limit applies. */
  rate_limit_per_minute: number | null;
  rate_limit_per_day: number | null;
  /** Off for dashboard sign-ups until their owner enables it. */
  api_access_enabled: boolean;
  created_at: string;
  keys: Array<{
    key_id: string;
    mode: "live" | "test";
    name: string | null;
    created_at: string;
    /** To the minute; null: never used. */
    last_used_at: string | null;
    revoked_at: string | null;
  }>;
}

/** Every account with its keys' ids, names, last use and states, oldest first; no secrets or hashes. */
export async function listAccounts(db: GatewayDb): Promise<AccountListing[]> {
  const accounts = await db.account.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: {
      apiKeys: {
        orderBy: [{ createdAt: "asc" }, { keyId: "asc" }],
        select: { keyId: true, mode: true, name: true, createdAt: true, lastUsedAt: true, revokedAt: true },
      },
    },
  });
  return accounts.map((account) => ({
    account_id: account.id,
    name: account.name,
    opening_balance_pence: Number(account.openingBalancePence),
    rate_limit_per_minute: account.rateLimitPerMinute,
    rate_limit_per_day: account.rateLimitPerDay,
    api_access_enabled: account.apiAccessEnabled,
    created_at: account.createdAt.toISOString(),
    keys: account.apiKeys.map((key) => ({
      key_id: key.keyId,
      mode: key.mode,
      name: key.name,
      created_at: key.createdAt.toISOString(),
      last_used_at: key.lastUsedAt?.toISOString() ?? null,
      revoked_at: key.revokedAt?.toISOString() ?? null,
    })),
  }));
}
