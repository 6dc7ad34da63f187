import { type AppReadiness, type BreakerView, readBreakers, readReadiness } from "./app-probes.ts";
import type { AppTarget } from "./app-targets.ts";

/** A queue as `admin queues` (the bus's command) reports it. */
export interface QueueView {
  name: string;
  kind: "work" | "wait" | "dead_letter" | "rpc";
  work_queue?: string;
  messages: number;
  consumers: number;
  missing?: true;
}

type QueueEntry = Omit<QueueView, "kind">;

/** The operator's view: one JSON object (docs/operations/operator-view.md describes each field). */
export interface StatusReport {
  as_of: string;
  /** False when `problems` is not empty: the exit code is then 1. */
  healthy: boolean;
  problems: string[];
  queues: { work: QueueEntry[]; wait: QueueEntry[]; dead_letter: QueueEntry[]; rpc: QueueEntry[] } | { error: string };
  apps: AppReadiness[];
  breakers: BreakerView[];
  /**
   * From `admin filing-activity` (the filing service's command): `submitted`, `accepted`,
   * `rejected`, `errored` (each `last_5m`, `last_60m`), `oldest_unfinished_age_seconds`,
   * `oldest_unfinished`; or why it could not be read.
   */
  filings: Record<string, unknown> | { error: string };
}

/** Runs another owner's admin command (the root admin CLI's dispatcher): its exit code and stdout. */
export type RunCommand = (argv: string[]) => Promise<{ code: number; stdout: string }>;

export interface StatusSources {
  runCommand: RunCommand;
  targets: readonly AppTarget[];
  now?: () => Date;
}

async function commandJson(runCommand: RunCommand, argv: string[]): Promise<Record<string, unknown> | { error: string }> {
  try {
    const { code, stdout } = await runCommand(argv);
    if (code !== 0) return { error: `admin ${argv.join(" ")} exited ${code} (its message is above, on stderr)` };
    return JSON.parse(stdout) as Record<string, unknown>;
  } catch (error) {
    return { error: `admin ${argv.join(" ")} failed: ${(error as Error).message}` };
  }
}

/** filing-activity's answer without its own `as_of`, the counts at the top. */
function flattenFilings(answer: Record<string, unknown> | { error: string }): StatusReport["filings"] {
  if ("error" in answer) return answer;
  const { as_of: _, filings, ...rest } = answer;
  return { ...(filings as Record<string, unknown>), ...rest };
}

function groupQueues(answer: Record<string, unknown> | { error: string }): StatusReport["queues"] {
  if ("error" in answer) return { error: String(answer.error) };
  const grouped = { work: [] as QueueEntry[], wait: [] as QueueEntry[], dead_letter: [] as QueueEntry[], rpc: [] as QueueEntry[] };
  for (const { kind, ...queue } of (answer.queues ?? []) as QueueView[]) grouped[kind].push(queue);
  return grouped;
}

/** Why the system needs an operator now (each line a reason for exit code 1); empty when none. */
export function problemsOf(report: Omit<StatusReport, "problems" | "healthy">): string[] {
  const problems: string[] = [];
  if ("error" in report.queues) problems.push(`the queues could not be read: ${report.queues.error}`);
  else {
    for (const queue of report.queues.dead_letter) {
      if (queue.messages > 0) problems.push(`dead-letter queue ${queue.name} holds ${queue.messages} message(s)`);
    }
  }
  for (const app of report.apps) {
    if (app.status === "ready") continue;
    const failing = Object.entries(app.checks ?? {}).filter(([, answer]) => answer !== "ok");
    const why = app.error ?? failing.map(([check, answer]) => `${check}: ${answer}`).join("; ");
    problems.push(`app ${app.name} is ${app.status.replace("_", " ")}${why ? ` (${why})` : ""}`);
  }
  for (const breaker of report.breakers) {
    if (breaker.state === "open") problems.push(`breaker ${breaker.breaker} of ${breaker.app} is open`);
  }
  if ("error" in report.filings) problems.push(`the filing activity could not be read: ${report.filings.error}`);
  return problems;
}

/**
 * Gathers the operator's view: the queues from the bus's own `admin queues`, each app's /readyz
 * and its breakers from its /metrics, the filings from the filing service's own
 * `admin filing-activity`. Nothing here reads a service's database or knows a queue's name.
 */
export async function gatherStatus(sources: StatusSources): Promise<StatusReport> {
  const asOf = (sources.now ?? (() => new Date()))();
  const [queues, filings, apps, breakers] = await Promise.all([
    commandJson(sources.runCommand, ["queues"]),
    commandJson(sources.runCommand, ["filing-activity"]),
    Promise.all(sources.targets.map(readReadiness)),
    Promise.all(sources.targets.map(readBreakers)),
  ]);
  const report = {
    as_of: asOf.toISOString(),
    queues: groupQueues(queues),
    apps,
    breakers: breakers.flat(),
    filings: flattenFilings(filings),
  };
  const problems = problemsOf(report);
  const { as_of, queues: grouped, breakers: flat, filings: activity } = report;
  return { as_of, healthy: problems.length === 0, problems, queues: grouped, apps, breakers: flat, filings: activity };
}
