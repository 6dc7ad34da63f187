// The bus's operator commands: queues (depth and consumers of every queue of the platform's
// topology) and replay-dead-letters (a parking lot back to its work queue). The bus owns the
// topology, so these run here. The root admin CLI (`npm run --silent admin -- <command>`,
// scripts/admin.mjs) finds this module through the "admin" entry of package.json "dormant"; it
// also runs directly (`pnpm --filter @dormant/bus replay-dead-letters --queue Q`). Each prints
// one JSON object on stdout. Exit codes: 0 done, 1 failed (broker unreachable, queue missing),
// 2 bad invocation.
import { adminFailure, isEntryPoint } from "@dormant/service-kit";
import type { BusCliContext } from "./context.ts";
import { UsageError } from "./context.ts";
import { QUEUES_HELP, QUEUES_USAGE, runQueues } from "./queues.ts";
import { REPLAY_HELP, REPLAY_USAGE, runReplayDeadLetters } from "./replay-dead-letters.ts";

export const BUS_ADMIN_COMMANDS = ["queues", "replay-dead-letters"] as const;
export const BUS_USAGE = `usage:\n${QUEUES_USAGE}\n${REPLAY_USAGE}`;

/** Runs one bus command from its argv and returns the exit code. */
export async function runBusAdminCli(argv: string[], context: BusCliContext): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "queues") return await runQueues(rest, context);
    if (command === "replay-dead-letters") return await runReplayDeadLetters(rest, context);
    throw new UsageError(`unknown bus command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError) {
      return adminFailure(context, 2, `${error.message}\n${BUS_USAGE}`);
    }
    return adminFailure(context, 1, `${command} failed: ${(error as Error).message}`);
  }
}

/** This CLI as the root admin CLI runs it. */
export const adminCli = {
  commands: BUS_ADMIN_COMMANDS,
  usage: BUS_USAGE,
  help: { queues: QUEUES_HELP, "replay-dead-letters": REPLAY_HELP } as Record<(typeof BUS_ADMIN_COMMANDS)[number], string>,
  run: (argv: string[], context: BusCliContext) => runBusAdminCli(argv, context),
};

if (isEntryPoint(import.meta.url))
  process.exitCode = await runBusAdminCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
