import { openAccount, withBillingDb } from "@dormant/billing/admin";
import { createAccount, createGatewayDb, createSecretHasher } from "@dormant/gateway/admin";

export interface SystemAccount {
  accountId: string;
  liveKey: string;
  testKey: string;
}

export interface NewAccount {
  name?: string;
  /** Opening balance in pence (a ledger credit in billing). */
  balancePence: number;
  /** Per-key limits; generous by default so that polling never hits them. */
  ratePerMinute?: number;
  ratePerDay?: number;
}

/**
 * What `npm run admin -- create-account` does, in process: the account and its live and test
 * keys in the gateway database (hashed with the gateway's pepper), then the same account id
 * with its opening balance in billing.
 */
export async function createSystemAccount(
  urls: { gatewayDatabaseUrl: string; billingDatabaseUrl: string; apiKeyPepper: string },
  input: NewAccount,
): Promise<SystemAccount> {
  const db = createGatewayDb(urls.gatewayDatabaseUrl);
  try {
    const created = await createAccount(
      db,
      {
        name: input.name ?? "System Test Agency Ltd",
        openingBalancePence: BigInt(input.balancePence),
        rateLimitPerMinute: input.ratePerMinute ?? 100_000,
        rateLimitPerDay: input.ratePerDay ?? 10_000_000,
      },
      { hasher: createSecretHasher(urls.apiKeyPepper) },
    );
    await withBillingDb(urls.billingDatabaseUrl, (billing) =>
      openAccount(billing, {
        accountId: created.accountId,
        openingBalancePence: input.balancePence,
        name: input.name ?? "System Test Agency Ltd",
      }),
    );
    return created;
  } finally {
    await db.$disconnect();
  }
}
