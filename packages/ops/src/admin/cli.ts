// The operator's view: `admin status` (one JSON object: the bus's queues, each app's readiness,
// the authority breakers, the filings lately) and `status --watch` (a table redrawn every 2 s
// until Ctrl-C). It owns no data: the queues come from the bus's own `admin queues`, the filings
// from the filing service's own `admin filing-activity`, both through the root admin CLI's
// dispatcher (context.runCommand); readiness and breakers from each app's ops endpoints (/readyz,
// /metrics). The root admin CLI (scripts/admin.mjs) finds this module through the "admin" entry
// of package.json "dormant". Exit codes: 0 healthy, 1 a problem (a dead-letter queue not empty, an
// app not ready, a breaker open, or a part that could not be read), 2 bad invocation.
// docs/operations/operator-view.md.
import { parseArgs } from "node:util";
import { type AdminContext, adminFailure } from "@dormant/service-kit";
import { appTargets } from "../status/app-targets.ts";
import { renderTable } from "../status/render-table.ts";
import { gatherStatus, type RunCommand } from "../status/report.ts";
import { watchStatus } from "../status/watch.ts";

/** The part of the root admin CLI's context the operator's view uses (`apps` may be left out: none). */
export type OpsContext = Pick<AdminContext, "env" | "stdout" | "stderr"> & { runCommand: RunCommand; apps?: AdminContext["apps"] };

export const OPS_ADMIN_COMMANDS = ["status"] as const;
export const OPS_USAGE = `usage:
  admin status [--watch]`;

const STATUS_HELP = `The operator's view, as one JSON object: every work, wait and dead-letter queue (and RPC queue)
with its depth and consumers, each app's readiness (/readyz), the authority breakers' states (from
the submitters' /metrics), the filings submitted, accepted, rejected and errored in the last 5 and
60 minutes and the age of the oldest filing not yet final; "problems" says what needs an operator.
  --watch   redraw a compact table every 2 s (clear screen) until Ctrl-C; exit code 0
Exit codes: 0 healthy; 1 a dead-letter queue is not empty, an app is not ready, a breaker is open,
or a part could not be read; 2 bad invocation.
Reads AMQP_URL (queues), FILING_DATABASE_URL (filings) and OPS_URLS ("name=url,..." where each
app's ops endpoints are; default: every app on this machine at its default port).`;

export async function runOpsAdminCli(argv: string[], context: OpsContext): Promise<number> {
  const [command, ...rest] = argv;
  let watch: boolean;
  let targets: ReturnType<typeof appTargets>;
  try {
    if (command !== "status") throw new Error(`unknown ops command "${command}"`);
    watch = parseArgs({ args: rest, options: { watch: { type: "boolean" } }, strict: true, allowPositionals: false }).values.watch ?? false;
    targets = appTargets(context.apps ?? [], context.env.OPS_URLS);
  } catch (error) {
    return adminFailure(context, 2, `${(error as Error).message}\n${OPS_USAGE}`);
  }
  const gather = () => gatherStatus({ runCommand: context.runCommand, targets });
  if (watch) {
    await watchStatus({ gather, render: renderTable, write: (text) => void context.stdout.write(text) });
    return 0;
  }
  const report = await gather();
  context.stdout.write(`${JSON.stringify(report)}\n`);
  return report.healthy ? 0 : 1;
}

/** This CLI as the root admin CLI runs it. */
export const adminCli = {
  commands: OPS_ADMIN_COMMANDS,
  usage: OPS_USAGE,
  help: { status: STATUS_HELP } as Record<(typeof OPS_ADMIN_COMMANDS)[number], string>,
  run: (argv: string[], context: OpsContext) => runOpsAdminCli(argv, context),
};
