import type { StatusReport } from "./report.ts";

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join("  "));
}

/** The report as a compact table for a terminal (`status --watch`): problems first, then each part. */
export function renderTable(report: StatusReport): string {
  const lines = [`dormant status ${report.as_of}  ${report.healthy ? "HEALTHY" : `${report.problems.length} PROBLEM(S)`}`];
  for (const problem of report.problems) lines.push(`  ! ${problem}`);
  lines.push("");
  if ("error" in report.queues) lines.push(`queues: ${report.queues.error}`);
  else {
    const q = report.queues;
    const rows = [["QUEUE", "KIND", "MESSAGES", "CONSUMERS"]];
    for (const [kind, queues] of [
      ["work", q.work],
      ["dead_letter", q.dead_letter],
      ["rpc", q.rpc],
    ] as const) {
      for (const queue of queues) rows.push([queue.name, kind, queue.missing ? "-" : String(queue.messages), String(queue.consumers)]);
    }
    const waiting = q.wait.reduce((sum, queue) => sum + queue.messages, 0);
    rows.push([`(${q.wait.length} wait queues)`, "wait", String(waiting), "-"]);
    lines.push(...table(rows));
  }
  lines.push("");
  lines.push(...table([["APP", "READINESS", "URL"], ...report.apps.map((app) => [app.name, app.status, app.url])]));
  if (report.breakers.length > 0) {
    lines.push("");
    lines.push(...table([["BREAKER", "APP", "STATE"], ...report.breakers.map((b) => [b.breaker, b.app, b.state])]));
  }
  lines.push("");
  const f = report.filings;
  if ("error" in f) lines.push(`filings: ${f.error}`);
  else {
    const counts = ["submitted", "accepted", "rejected", "errored"].map((what) => {
      const count = f[what] as { last_5m?: number; last_60m?: number } | undefined;
      return [what, String(count?.last_5m ?? "?"), String(count?.last_60m ?? "?")];
    });
    lines.push(...table([["FILINGS", "5 MIN", "60 MIN"], ...counts]));
    const oldest = f.oldest_unfinished_age_seconds;
    lines.push(`oldest filing not yet final: ${typeof oldest === "number" ? `${oldest} s` : "none"}`);
  }
  return `${lines.join("\n")}\n`;
}
