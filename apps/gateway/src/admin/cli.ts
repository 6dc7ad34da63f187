// Operator CLI: `npm run --silent admin -- <command> ...`. Accounts and API keys live in the
// gateway database; money (balance, top-up, ledger, reconcile, and create-account's opening
// balance) belongs to the billing service, whose operator functions this CLI calls directly
// against billing's own database (apps/billing/src/admin). Prints exactly one JSON object on
// stdout; logs and errors go to stderr. Exit codes: 0 done, 1 failed (e.g. unknown key,
// database unreachable, reconcile found problems), 2 bad invocation. See docs/security-and-limits.md.
import { billingDatabaseEnvShape, isBillingAdminCommand, openAccount, runBillingAdminCli, withBillingDb, BILLING_USAGE } from "@dormant/billing/admin";
import { ConfigError, createLogger, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { createGatewayDb } from "../db/client.ts";
import { migrateGatewayDatabase } from "../db/migrations.ts";
import { gatewayDatabaseEnvShape } from "../db/settings.ts";
import { createSecretHasher } from "../keys/hash.ts";
import { apiKeyEnvShape, resolveApiKeyPepper } from "../keys/pepper.ts";
import { revokeApiKey } from "../keys/revoke.ts";
import { createAccount, listAccounts } from "./accounts.ts";
import { parseAdminArgs, USAGE, UsageError } from "./args.ts";
import type { AdminCommand } from "./args.ts";

const logger = createLogger({ service: "gateway-admin", destination: process.stderr });

class CommandFailed extends Error {}

async function run(command: AdminCommand): Promise<object> {
  const env = parseEnv(z.object({ NODE_ENV: z.string().optional(), ...gatewayDatabaseEnvShape, ...apiKeyEnvShape, ...billingDatabaseEnvShape }));
  await migrateGatewayDatabase(env.GATEWAY_DATABASE_URL, logger);
  const db = createGatewayDb(env.GATEWAY_DATABASE_URL);
  try {
    switch (command.command) {
      case "create-account": {
        const hasher = createSecretHasher(resolveApiKeyPepper(env));
        const { command: _, ...input } = command;
        const created = await createAccount(db, input, { hasher });
        // The opening balance is billing's: a ledger credit on the same account id. openAccount
        // is idempotent, so rerunning after a failure here is safe.
        await withBillingDb(env.BILLING_DATABASE_URL, (billing) =>
          openAccount(billing, { accountId: created.accountId, openingBalancePence: input.openingBalancePence, name: input.name }),
        );
        return { account_id: created.accountId, live_key: created.liveKey, test_key: created.testKey };
      }
      case "revoke-key": {
        const revoked = await revokeApiKey(db, command.keyId);
        if (!revoked) throw new CommandFailed(`no API key with id "${command.keyId}"`);
        return { key_id: revoked.keyId, revoked_at: revoked.revokedAt.toISOString() };
      }
      case "list-accounts":
        return { accounts: await listAccounts(db) };
    }
  } finally {
    await db.$disconnect();
  }
}

function fail(code: number, message: string): void {
  process.stderr.write(`admin: ${message}\n`);
  process.exitCode = code;
}

const argv = process.argv.slice(2);
try {
  if (isBillingAdminCommand(argv[0])) {
    process.exitCode = await runBillingAdminCli(argv);
  } else {
    const command = parseAdminArgs(argv);
    process.stdout.write(`${JSON.stringify(await run(command))}\n`);
  }
} catch (error) {
  if (error instanceof UsageError) fail(2, `${error.message}\n${USAGE}\n${BILLING_USAGE.replace(/^usage:\n/, "")}`);
  else if (error instanceof CommandFailed || error instanceof ConfigError) fail(1, error.message);
  else {
    logger.error({ err: error }, "admin command failed");
    fail(1, (error as Error).message);
  }
}
