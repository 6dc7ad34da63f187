// Start-up time (spawn to /readyz 200) and resident memory (VmRSS 3 s after ready) of every app,
// run both ways: TypeScript through tsx (`node --import tsx src/main.ts`, as `npm start` does)
// and the production build (`node src/main.js` from scripts/build-app.mjs), in turns.
//   node --import tsx tests/deploy/bench/startup-memory.ts [--rounds 3] [--builds /tmp/dormant-builds]
// Apps are built into --builds first when missing. Prints a Markdown table (medians) on stdout.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, createTestRedisPrefix, createTestVhost, type TestDatabase } from "@dormant/testing";
import { repoPath } from "../src/repo.ts";
import { APP_PORTS, productionEnv } from "./app-env.ts";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "3" }, builds: { type: "string", default: "/tmp/dormant-builds" } },
});
const rounds = Number(values.rounds);
const apps = Object.keys(APP_PORTS);
const DATABASES: Record<string, string> = {
  gateway: "GATEWAY_DATABASE_URL",
  filing: "FILING_DATABASE_URL",
  billing: "BILLING_DATABASE_URL",
  notifier: "NOTIFIER_DATABASE_URL",
};
type Mode = "tsx" | "built";

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("VmRSS:"))!;
  return Number(line.replace(/\D+/g, "")) / 1024;
}

function start(app: string, mode: Mode, env: Record<string, string>): ChildProcess {
  const [cwd, args] =
    mode === "tsx" ? [repoPath(`apps/${app}`), ["--import", "tsx", "src/main.ts"]] : [join(values.builds!, app), ["src/main.js"]];
  return spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

async function measure(app: string, mode: Mode, env: Record<string, string>): Promise<{ readyMs: number; rssMb: number }> {
  const url = `http://127.0.0.1:${APP_PORTS[app]!.port}/readyz`;
  const began = performance.now();
  const child = start(app, mode, env);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} (${mode}) exited with ${child.exitCode}`);
    const response = await fetch(url).catch(() => undefined);
    if (response?.status === 200) break;
    if (performance.now() - began > 60_000) throw new Error(`${app} (${mode}) not ready in 60 s`);
    await sleep(20);
  }
  const readyMs = performance.now() - began;
  await sleep(3_000);
  const rss = rssMb(child.pid!);
  child.kill("SIGTERM");
  await exited(child);
  return { readyMs, rssMb: rss };
}

for (const app of apps) {
  if (!existsSync(join(values.builds!, app, "src", "main.js"))) {
    execFileSync(process.execPath, [repoPath("scripts/build-app.mjs"), app, join(values.builds!, app)], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
}
const vhost = await createTestVhost("bench_startup");
const redis = createTestRedisPrefix("bench_startup");
const databases: TestDatabase[] = [];
const base = productionEnv({ amqpUrl: vhost.url, redisUrl: redis.url, redisPrefix: redis.prefix });
for (const [app, variable] of Object.entries(DATABASES)) {
  const database = await createTestDatabase({ label: `bench_${app}` });
  databases.push(database);
  base[variable] = database.url;
  execFileSync(process.execPath, ["src/migrate.js"], { cwd: join(values.builds!, app), env: { PATH: process.env.PATH ?? "", ...base } });
}
const envOf = (app: string) => ({ ...base, [APP_PORTS[app]!.variable]: String(APP_PORTS[app]!.port) });

// The MCP server is ready when the API answers: a built gateway runs beside it.
const results: Record<string, Record<Mode, Array<{ readyMs: number; rssMb: number }>>> = {};
let gateway: ChildProcess | undefined;
try {
  for (const app of apps) {
    if (app === "mcp") {
      gateway = start("gateway", "built", envOf("gateway"));
      await sleep(4_000);
    }
    results[app] = { tsx: [], built: [] };
    for (let round = 0; round < rounds; round++) {
      const order: Mode[] = round % 2 === 0 ? ["tsx", "built"] : ["built", "tsx"];
      for (const mode of order) results[app]![mode].push(await measure(app, mode, envOf(app)));
    }
    process.stderr.write(`${app}: ${JSON.stringify(results[app])}\n`);
  }
} finally {
  gateway?.kill("SIGTERM");
  if (gateway) await exited(gateway);
  await Promise.all(databases.map((database) => database.drop()));
  await vhost.delete();
  await redis.cleanup();
}

const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
const lines = [
  row(["app", "ready, tsx (ms)", "ready, built (ms)", "RSS, tsx (MB)", "RSS, built (MB)"]),
  row(["---", "---:", "---:", "---:", "---:"]),
];
const totals = { tsx: 0, built: 0 };
for (const app of apps) {
  const [tsx, built] = [results[app]!.tsx, results[app]!.built];
  const rss = { tsx: median(tsx.map((r) => r.rssMb)), built: median(built.map((r) => r.rssMb)) };
  totals.tsx += rss.tsx;
  totals.built += rss.built;
  lines.push(
    row([app, ...[tsx, built].map((list) => Math.round(median(list.map((r) => r.readyMs)))), rss.tsx.toFixed(0), rss.built.toFixed(0)]),
  );
}
lines.push(row(["**all eight**", "", "", totals.tsx.toFixed(0), totals.built.toFixed(0)]));
process.stdout.write(`${lines.join("\n")}\n\nmedians of ${rounds} runs each way, tsx and built in turns\n`);
