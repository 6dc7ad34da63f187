// Billing's operator commands: balance, top-up, ledger, reconcile, open-account. Each prints
// exactly one JSON object on stdout; messages go to stderr. Exit codes: 0 done, 1 failed (unknown
// account, database unreachable, the filing service not answering reconcile --against-filings,
// or reconcile found problems: its report is still printed), 2 bad invocation. Run directly (`node --import tsx apps/billing/src/admin/cli-commands.ts
// balance --account acc_...`) or from the root admin CLI (scripts/admin.mjs), which finds
// `adminCli` through the "admin" entry of package.json "dormant".
import { isAppError } from "@dormant/contracts";
import {
  createLogger,
  isEntryPoint,
  parseEnv,
  type AdminContext,
  runAdminCommand,
  type CliStreams,
  PROCESS_STREAMS,
} from "@dormant/service-kit";
import { z } from "zod";
import { amqpEnvShape } from "../bus/settings.ts";
import { billingDatabaseEnvShape } from "../db/settings.ts";
import { BILLING_ADMIN_COMMANDS, BILLING_USAGE, parseBillingAdminArgs, type BillingAdminCommand } from "./cli-args.ts";
import { withFilingService } from "./filing-service.ts";
import { getBalance, listLedger, openAccount, reconcile, reconcileAgainstFilings, topUp } from "./operations.ts";
import { withBillingDb } from "./with-billing-db.ts";

const HOUR_MS = 60 * 60 * 1000;

/** The broker, read only by the command that needs it (reconcile --against-filings). */
const amqpUrl = (env: Record<string, string | undefined>) => parseEnv(z.object(amqpEnvShape), env).AMQP_URL;

/** The bus's log lines (connection trouble) on stderr when LOG_LEVEL asks for them; silent otherwise. */
const busLogger = (env: Record<string, string | undefined>, stderr: CliStreams["stderr"]) =>
  createLogger({ service: "billing-admin", level: env.LOG_LEVEL || "silent", destination: stderr as NodeJS.WritableStream });

async function execute(
  command: BillingAdminCommand,
  databaseUrl: string,
  env: Record<string, string | undefined>,
  streams: CliStreams,
): Promise<{ output: object; ok: boolean }> {
  const broker = command.command === "reconcile" && command.againstFilings ? amqpUrl(env) : undefined;
  return withBillingDb(databaseUrl, async (db) => {
    switch (command.command) {
      case "open-account":
        return {
          ok: true,
          output: await openAccount(db, {
            accountId: command.accountId,
            openingBalancePence: command.openingBalancePence,
            ...(command.name ? { name: command.name } : {}),
          }),
        };
      case "balance":
        return { ok: true, output: await getBalance(db, command.accountId) };
      case "top-up":
        return {
          ok: true,
          output: await topUp(db, {
            accountId: command.accountId,
            amountPence: command.amountPence,
            ...(command.paymentId ? { paymentId: command.paymentId } : {}),
          }),
        };
      case "ledger":
        return {
          ok: true,
          output: await listLedger(db, { accountId: command.accountId, ...(command.limit ? { limit: command.limit } : {}) }),
        };
      case "reconcile": {
        const stale = command.staleHoldHours ? { staleHoldAfterMs: command.staleHoldHours * HOUR_MS } : {};
        const window = command.againstFilings;
        const report =
          window && broker
            ? await withFilingService(broker, (listFinal) => reconcileAgainstFilings(db, listFinal, { ...stale, ...window }), {
                logger: busLogger(env, streams.stderr),
              })
            : await reconcile(db, stale);
        return { ok: report.ok, output: report };
      }
    }
  });
}

/**
 * Runs one billing admin command from its argv (`["balance", "--account", "acc_..."]`), reading
 * BILLING_DATABASE_URL (and AMQP_URL for reconcile --against-filings) from `env`, and returns the
 * exit code. Prints one JSON object on stdout.
 */
export async function runBillingAdminCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  streams: CliStreams = PROCESS_STREAMS,
): Promise<number> {
  return runAdminCommand(streams, { usage: BILLING_USAGE, isExpected: isAppError }, async () => {
    const command = parseBillingAdminArgs(argv);
    const { BILLING_DATABASE_URL } = parseEnv(z.object(billingDatabaseEnvShape), env);
    const { output, ok } = await execute(command, BILLING_DATABASE_URL, env, streams);
    return ok ? { output } : { output, failure: "reconcile found problems (listed in the report)" };
  });
}

/** This CLI as the root admin CLI (scripts/admin.mjs) runs it: the context carries env and the streams. */
export const adminCli = {
  commands: BILLING_ADMIN_COMMANDS,
  usage: BILLING_USAGE,
  run: (argv: string[], context: Pick<AdminContext, "env" | "stdout" | "stderr">) => runBillingAdminCli(argv, context.env, context),
};

if (isEntryPoint(import.meta.url)) process.exitCode = await runBillingAdminCli(process.argv.slice(2));
