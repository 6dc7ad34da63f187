// Start-up time (spawn to /readyz 200) and resident memory (VmRSS 3 s after ready) of every app,
// run both ways: TypeScript through tsx (`node --import tsx src/main.ts`, as `npm start` does)
// and the production build (`node src/main.js` from scripts/build-app.mjs), in turns; with
// --engine, a third way: the same command in the app's production image (dormant/<app>, built by
// infra/docker/build-images.sh), on the host's network.
//   node --import tsx tests/deploy/bench/startup-memory.ts [--rounds 3] [--builds /tmp/dormant-builds]
//     [--engine podman --engine-flags="--runtime runc"]
// Apps are built into --builds first when missing. Prints a Markdown table (medians) on stdout.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, createTestRedisPrefix, createTestVhost, type TestDatabase } from "@dormant/testing";
import { repoPath } from "../src/repo.ts";
import { APP_PORTS, productionEnv } from "./app-env.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    builds: { type: "string", default: "/tmp/dormant-builds" },
    engine: { type: "string" },
    "engine-flags": { type: "string", default: "" },
  },
});
const rounds = Number(values.rounds);
const apps = Object.keys(APP_PORTS);
const DATABASES: Record<string, string> = {
  gateway: "GATEWAY_DATABASE_URL",
  filing: "FILING_DATABASE_URL",
  billing: "BILLING_DATABASE_URL",
  notifier: "NOTIFIER_DATABASE_URL",
  dashboard: "DASHBOARD_DATABASE_URL",
};
type Mode = "tsx" | "built" | "image";
const modes: Mode[] = values.engine ? ["tsx", "built", "image"] : ["tsx", "built"];
const engineFlags = values["engine-flags"]!.split(" ").filter((flag) => flag !== "");
const containerName = (app: string) => `dormant-bench-${app}`;

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
  if (mode === "image") {
    const settings = Object.entries(env).flatMap(([name, value]) => ["-e", `${name}=${value}`]);
    const args = ["run", "--rm", "--name", containerName(app), "--network", "host", ...engineFlags, ...settings];
    return spawn(values.engine!, [...args, `dormant/${app}`, "node", "src/main.js"], { stdio: ["ignore", "ignore", "inherit"] });
  }
  const [cwd, args] =
    mode === "tsx" ? [repoPath(`apps/${app}`), ["--import", "tsx", "src/main.ts"]] : [join(values.builds!, app), ["src/main.js"]];
  return spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

/** The node process: ours, or the container's first process (the host sees it under another pid). */
function nodePid(app: string, mode: Mode, child: ChildProcess): number {
  if (mode !== "image") return child.pid!;
  return Number(execFileSync(values.engine!, ["inspect", "--format", "{{.State.Pid}}", containerName(app)], { encoding: "utf8" }).trim());
}

async function stop(app: string, mode: Mode, child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  if (mode === "image") execFileSync(values.engine!, ["stop", "--time", "10", containerName(app)], { stdio: "ignore" });
  else child.kill("SIGTERM");
  await exited(child);
}

async function measure(app: string, mode: Mode, env: Record<string, string>): Promise<{ readyMs: number; rssMb: number }> {
  const url = `http://127.0.0.1:${APP_PORTS[app]!.port}/readyz`;
  const began = performance.now();
  const child = start(app, mode, env);
  // Stopped however the run ends: an app left running (or a named container) would hold its port
  // and spoil every later run.
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${app} (${mode}) exited with ${child.exitCode}`);
      const response = await fetch(url).catch(() => undefined);
      if (response?.status === 200) break;
      if (performance.now() - began > 60_000) throw new Error(`${app} (${mode}) not ready in 60 s`);
      await sleep(20);
    }
    const readyMs = performance.now() - began;
    await sleep(3_000);
    return { readyMs, rssMb: rssMb(nodePid(app, mode, child)) };
  } finally {
    await stop(app, mode, child);
  }
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
    results[app] = { tsx: [], built: [], image: [] };
    for (let round = 0; round < rounds; round++) {
      // Each way goes first in turn: tsx, built, image; then built, image, tsx; ...
      const order = modes.map((_, index) => modes[(index + round) % modes.length]!);
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
  row(["app", ...modes.map((mode) => `ready, ${mode} (ms)`), ...modes.map((mode) => `RSS, ${mode} (MB)`)]),
  row(["---", ...modes.flatMap(() => ["---:", "---:"])]),
];
const totals = new Map<Mode, number>(modes.map((mode) => [mode, 0]));
for (const app of apps) {
  const ready = modes.map((mode) => Math.round(median(results[app]![mode].map((r) => r.readyMs))));
  const rss = modes.map((mode) => median(results[app]![mode].map((r) => r.rssMb)));
  for (const [index, mode] of modes.entries()) totals.set(mode, totals.get(mode)! + rss[index]!);
  lines.push(row([app, ...ready, ...rss.map((mb) => mb.toFixed(0))]));
}
lines.push(row([`**all ${apps.length}**`, ...modes.map(() => ""), ...modes.map((mode) => totals.get(mode)!.toFixed(0))]));
process.stdout.write(`${lines.join("\n")}\n\nmedians of ${rounds} runs each way (${modes.join(", ")}), in turns\n`);
