// The notifier's operator commands: webhook-endpoints (an account's endpoints, read from the
// notifier's own database) and replay-webhook (deliver an event to an endpoint again). Each prints
// exactly one JSON object on stdout; messages go to stderr. Exit codes: 0 done, 1 failed (unknown
// event or endpoint, database or broker unreachable), 2 bad invocation. Run directly
// (`node --import tsx apps/notifier/src/admin/cli-commands.ts webhook-endpoints --account acc_...`)
// or from the root admin CLI (scripts/admin.mjs), which finds `adminCli` through the "admin" entry
// of package.json "dormant".
import { connectBus } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
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
import { closeNotifierDb, createNotifierDb, type NotifierDb } from "../db/client.ts";
import { migrateNotifierDatabase } from "../db/migrations.ts";
import { notifierDatabaseEnvShape } from "../db/settings.ts";
import { NOTIFIER_ADMIN_COMMANDS, NOTIFIER_USAGE, parseNotifierAdminArgs } from "./cli-args.ts";
import { AdminError, armReplay, listAccountEndpoints } from "./operations.ts";

/** Runs `fn` with a client of the notifier database (created and migrated first, so commands work before the service ever ran). */
export async function withNotifierDb<T>(databaseUrl: string, fn: (db: NotifierDb) => Promise<T>): Promise<T> {
  await migrateNotifierDatabase(databaseUrl);
  const db = createNotifierDb(databaseUrl, { max: 2 });
  try {
    return await fn(db);
  } finally {
    await closeNotifierDb(db);
  }
}

/** Sends one deliver command now, on its mode's queue (the notifier's deliveries consumer attempts it). */
async function sendDeliver(
  amqpUrl: string,
  deliveryId: string,
  mode: "live" | "test",
  env: Record<string, string | undefined>,
  stderr: CliStreams["stderr"],
) {
  const bus = await connectBus({
    url: amqpUrl,
    service: "notifier-admin",
    topology: PLATFORM_TOPOLOGY,
    messages: {
      "notifier.deliver": PLATFORM_MESSAGE_CATALOG["notifier.deliver"],
      "notifier.deliver_test": PLATFORM_MESSAGE_CATALOG["notifier.deliver_test"],
    },
    rpc: {},
    logger: createLogger({ service: "notifier-admin", level: env.LOG_LEVEL || "silent", destination: stderr as NodeJS.WritableStream }),
    reconnect: { initialDelayMs: 100, maxDelayMs: 1_000 },
  });
  try {
    await bus.publish(mode === "test" ? "notifier.deliver_test" : "notifier.deliver", { delivery_id: deliveryId });
  } finally {
    await bus.close();
  }
}

/**
 * Runs one notifier admin command from its argv, reading NOTIFIER_DATABASE_URL (and AMQP_URL for
 * replay-webhook) from `env`, and returns the exit code. Prints one JSON object on stdout.
 */
export async function runNotifierAdminCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  streams: CliStreams = PROCESS_STREAMS,
): Promise<number> {
  return runAdminCommand(streams, { usage: NOTIFIER_USAGE, isExpected: (error) => error instanceof AdminError }, async () => {
    const command = parseNotifierAdminArgs(argv);
    const { NOTIFIER_DATABASE_URL } = parseEnv(z.object(notifierDatabaseEnvShape), env);
    let output: object;
    if (command.command === "webhook-endpoints") {
      output = await withNotifierDb(NOTIFIER_DATABASE_URL, (db) => listAccountEndpoints(db, command.accountId, command.mode));
    } else {
      const { AMQP_URL } = parseEnv(z.object(amqpEnvShape), env);
      const armed = await withNotifierDb(NOTIFIER_DATABASE_URL, (db) => armReplay(db, command.eventId, command.endpointId));
      let sent = true;
      try {
        await sendDeliver(AMQP_URL, armed.delivery_id, armed.mode, env, streams.stderr);
      } catch (error) {
        sent = false;
        streams.stderr.write(
          `admin: the deliver command could not be sent (${(error as Error).message}); the notifier's sweeper sends it within a minute\n`,
        );
      }
      output = { ...armed, state: "pending", command_sent: sent };
    }
    return { output };
  });
}

/** This CLI as the root admin CLI (scripts/admin.mjs) runs it: the context carries env and the streams. */
export const adminCli = {
  commands: NOTIFIER_ADMIN_COMMANDS,
  usage: NOTIFIER_USAGE,
  run: (argv: string[], context: Pick<AdminContext, "env" | "stdout" | "stderr">) => runNotifierAdminCli(argv, context.env, context),
};

if (isEntryPoint(import.meta.url)) process.exitCode = await runNotifierAdminCli(process.argv.slice(2));
