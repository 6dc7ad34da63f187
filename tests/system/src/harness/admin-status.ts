import { execFile } from "node:child_process";
import { APP_NAMES, repoRoot } from "./paths.ts";
import type { RunningSystem } from "./system.ts";

/** What the system tests read of `admin status`'s report (packages/ops StatusReport; docs/operations/operator-view.md). */
export interface AdminStatusReport {
  healthy: boolean;
  problems: string[];
  apps: Array<{ name: string; status: string }>;
  breakers: Array<{ state: string }>;
  queues: { dead_letter: Array<{ name: string; messages: number }> } | { error: string };
  /** Counts per status (`last_5m`, `last_60m`) and the oldest unfinished filing's age. */
  filings: Record<string, { last_5m: number; last_60m: number }> & { oldest_unfinished_age_seconds?: number | null };
}

/** `npm run admin -- status` against a started system, as an operator runs it: its exit code and JSON report. */
export function adminStatus(system: RunningSystem): Promise<{ code: number; report: AdminStatusReport }> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    AMQP_URL: system.vhost.url,
    FILING_DATABASE_URL: system.databases.filing.url,
    OPS_URLS: APP_NAMES.map((app) => `${app}=${system.opsUrl(app)}`).join(","),
  };
  return new Promise((resolve, reject) =>
    execFile("npm", ["run", "--silent", "admin", "--", "status"], { cwd: repoRoot, env }, (error, out) => {
      try {
        resolve({ code: error ? Number(error.code) : 0, report: JSON.parse(out) as AdminStatusReport });
      } catch (parseError) {
        reject(new Error(`admin status printed no JSON (${String(error ?? parseError)}): ${out}`));
      }
    }),
  );
}

/** The report's dead-letter queues (throws when the queues could not be read). */
export function deadLetterQueues(report: AdminStatusReport): Array<{ name: string; messages: number }> {
  if ("error" in report.queues) throw new Error(`admin status could not read the queues: ${report.queues.error}`);
  return report.queues.dead_letter;
}
