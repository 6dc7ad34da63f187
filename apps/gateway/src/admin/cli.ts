// The gateway's operator commands: create-account, create-key, revoke-key, list-accounts (accounts and API
// keys live in the gateway database). The root admin CLI (`npm run --silent admin -- <command>`,
// scripts/admin.mjs) finds this module through the "admin" entry of package.json "dormant" and
// runs it with an AdminContext. Money belongs to billing: create-account opens the account's
// billing side through billing's own `open-account` command (context.runCommand), never through
// billing's database. Prints exactly one JSON object on stdout; logs and errors go to stderr.
// Exit codes: 0 done, 1 failed (e.g. unknown key, database unreachable, billing refused), 2 bad
// invocation. See docs/security-and-limits.md.
import { formatPence } from "@dormant/contracts";
import { runAdminCommand, type AdminContext as RootAdminContext, createLogger, parseEnv, type Logger } from "@dormant/service-kit";
import { z } from "zod";
import { createGatewayDb } from "../db/client.ts";
import { migrateGatewayDatabase } from "../db/migrations.ts";
import { gatewayDatabaseEnvShape } from "../db/settings.ts";
import { createSecretHasher } from "../keys/hash.ts";
import { apiKeyEnvShape, resolveApiKeyPepper } from "../keys/pepper.ts";
import { revokeApiKey } from "../keys/revoke.ts";
import { createAccount, listAccounts } from "./accounts.ts";
import { GATEWAY_ADMIN_COMMANDS, parseAdminArgs, USAGE } from "./args.ts";
import { createOperatorKey } from "./keys.ts";
import type { AdminCommand } from "./args.ts";

/** The part of the root admin CLI's context (service-kit's AdminContext) the gateway's commands use. */
export type AdminContext = Pick<RootAdminContext, "env" | "stdout" | "stderr" | "usage" | "runCommand">;

class CommandFailed extends Error {}

async function run(command: AdminCommand, context: AdminContext, logger: Logger): Promise<object> {
  const env = parseEnv(z.object({ NODE_ENV: z.string().optional(), ...gatewayDatabaseEnvShape, ...apiKeyEnvShape }), context.env);
  await migrateGatewayDatabase(env.GATEWAY_DATABASE_URL, logger);
  const db = createGatewayDb(env.GATEWAY_DATABASE_URL);
  try {
    switch (command.command) {
      case "create-account": {
        const hasher = createSecretHasher(resolveApiKeyPepper(env));
        const { command: _, ...input } = command;
        const created = await createAccount(db, input, { hasher });
        // The opening balance is billing's: a ledger credit on the same account id, by billing's
        // own command. open-account is idempotent, so finishing by hand after a failure is safe.
        const balance = formatPence(input.openingBalancePence);
        const opened = await context.runCommand([
          "open-account",
          `--account=${created.accountId}`,
          `--balance=${balance}`,
          `--name=${input.name}`,
        ]);
        if (opened.code !== 0) {
          throw new CommandFailed(
            `billing did not open account ${created.accountId} (above); open it with: admin open-account --account ${created.accountId} --balance ${balance}`,
          );
        }
        context.stderr.write(
          `admin: to let the account's owner sign in to the dashboard, print a one-time password link with: admin dashboard-invite --account ${created.accountId} --email EMAIL\n`,
        );
        return { account_id: created.accountId, live_key: created.liveKey, test_key: created.testKey };
      }
      case "create-key": {
        const hasher = createSecretHasher(resolveApiKeyPepper(env));
        const { command: _, ...input } = command;
        const created = await createOperatorKey(db, input, hasher);
        if (!created) throw new CommandFailed(`no account with id "${command.accountId}"`);
        return created;
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

/** Runs one gateway admin command from its argv (`["revoke-key", "--key", "..."]`) and returns the exit code. */
export async function runGatewayAdminCli(argv: string[], context: AdminContext): Promise<number> {
  const logger = createLogger({ service: "gateway-admin", destination: context.stderr as NodeJS.WritableStream });
  const options = {
    usage: context.usage,
    isExpected: (error: unknown) => error instanceof CommandFailed,
    onUnexpected: (error: unknown) => logger.error({ err: error }, "admin command failed"),
  };
  return runAdminCommand(context, options, async () => ({ output: await run(parseAdminArgs(argv), context, logger) }));
}

/** `admin COMMAND --help`: what a command does beyond its usage line. */
const HELP: Partial<Record<(typeof GATEWAY_ADMIN_COMMANDS)[number], string>> = {
  "create-account": `Creates an account with --balance GBP (credited in billing through its open-account command)
and one live and one test API key, printed once ({"account_id","live_key","test_key"}); API access
is on. The account's owner gets a dashboard password through the one-time link that
\`admin dashboard-invite --account ACCOUNT_ID --email EMAIL\` prints (stderr says so).`,
  "create-key": `Issues a new API key of --mode (live or test) for an existing account, named --name (at most
80 characters) if given, and switches the account's API access on. Prints the key once
({"account_id","key_id","mode","name","prefix","api_key"}); only its hash is stored. Rotation:
create a key, move the agent to it, then revoke-key the old one; the account and its balance stay.`,
};

/** This CLI as the root admin CLI (scripts/admin.mjs) runs it. */
export const adminCli = { commands: GATEWAY_ADMIN_COMMANDS, usage: USAGE, help: HELP, run: runGatewayAdminCli };
