// The dashboard's operator command: dashboard-invite (a one-time password link for an account
// made by `admin create-account`). Prints exactly one JSON object on stdout; messages go to
// stderr. Exit codes: 0 done, 1 failed (unknown account, email of another account, database or
// broker unreachable), 2 bad invocation. Found by the root admin CLI (scripts/admin.mjs) through
// the "admin" entry of package.json "dormant"; or run directly:
// `node --import tsx apps/dashboard/src/admin/cli-commands.ts dashboard-invite --account acc_... --email a@b.c`.
import { connectBus } from "@dormant/bus";
import { GATEWAY_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, isEntryPoint, type AdminContext, runAdminCommand, type CliStreams, PROCESS_STREAMS } from "@dormant/service-kit";
import { GatewayClient } from "../bus/gateway.ts";
import { closeDashboardDb, createDashboardDb } from "../db/client.ts";
import { migrateDashboardDatabase } from "../db/migrations.ts";
import { loadDashboardConfig } from "../env.ts";
import { DASHBOARD_ADMIN_COMMANDS, DASHBOARD_HELP, DASHBOARD_USAGE, parseDashboardAdminArgs } from "./cli-args.ts";
import { InviteError, inviteToDashboard } from "./invite.ts";

/** Runs one dashboard admin command from its argv with the settings in `env`; returns the exit code. */
export async function runDashboardAdminCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  streams: CliStreams = PROCESS_STREAMS,
): Promise<number> {
  return runAdminCommand(streams, { usage: DASHBOARD_USAGE, isExpected: (error) => error instanceof InviteError }, async () => {
    const command = parseDashboardAdminArgs(argv);
    const config = loadDashboardConfig(env);
    await migrateDashboardDatabase(config.DASHBOARD_DATABASE_URL);
    const db = createDashboardDb(config.DASHBOARD_DATABASE_URL, { max: 2 });
    const bus = await connectBus({
      url: config.AMQP_URL,
      service: "dashboard-admin",
      topology: PLATFORM_TOPOLOGY,
      messages: {},
      rpc: GATEWAY_RPC_CATALOG,
      logger: createLogger({
        service: "dashboard-admin",
        level: env.LOG_LEVEL || "silent",
        destination: streams.stderr as NodeJS.WritableStream,
      }),
      reconnect: { initialDelayMs: 100, maxDelayMs: 1_000 },
    });
    try {
      const invitation = await inviteToDashboard(
        { db, gateway: new GatewayClient(bus), publicUrl: config.publicUrl },
        command.accountId,
        command.email,
      );
      return { output: invitation };
    } finally {
      await bus.close().catch(() => undefined);
      await closeDashboardDb(db);
    }
  });
}

/** This CLI as the root admin CLI (scripts/admin.mjs) runs it. */
export const adminCli = {
  commands: DASHBOARD_ADMIN_COMMANDS,
  usage: DASHBOARD_USAGE,
  help: DASHBOARD_HELP,
  run: (argv: string[], context: Pick<AdminContext, "env" | "stdout" | "stderr">) => runDashboardAdminCli(argv, context.env, context),
};

if (isEntryPoint(import.meta.url)) process.exitCode = await runDashboardAdminCli(process.argv.slice(2));
