import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BREAKER_STATE_VALUE, createBreakerMetrics } from "@dormant/authority-client";
import { declareTopology } from "@dormant/bus";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { filingMigrationsFingerprint, migrateFilingDatabase } from "@dormant/filing";
import { createLogger, startOpsServer } from "@dormant/service-kit";
import { createTestDatabase, createTestVhost, runCaptured, type TestDatabase, type TestVhost } from "@dormant/testing";
import { type ChannelModel, connect } from "amqplib";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRootAdmin } from "../admin/root-admin.ts";
import type { StatusReport } from "./report.ts";

// `npm run --silent admin -- status` (the root dispatcher, the bus's and the filing service's own
// commands; in this process, and the bin through npm as an operator runs it for the replay and
// --watch) against a real broker (a vhost with the platform's
// topology), a real filing database, and two real ops servers (service-kit's, as every app
// serves them) standing for a filing service and a tax submitter, whose readiness and breaker
// state the test turns.
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

let vhost: TestVhost;
let database: TestDatabase;
let broker: ChannelModel;
let env: Record<string, string>;
let filingReady = true;
const submitterMetrics = new Registry();
const breakers = createBreakerMetrics(submitterMetrics);
const servers: Array<{ close(callback: () => void): void }> = [];

/** `npm run --silent admin -- ...` as a process: npm, then the bin (scripts/admin.mjs) under tsx. */
function adminWithNpm(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "admin", "--", ...args], { cwd: repoRoot, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The same command in this process: the root dispatcher the bin runs (runRootAdmin), with the
 * test's environment and captured streams. A process per command would be seconds of npm, Node
 * and tsx start-up; the bin runs as a process in the replay and --watch tests.
 */
function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCaptured((streams) => runRootAdmin(args, { env, ...streams }));
}

async function status() {
  const result = await admin(["status"]);
  return { ...result, report: JSON.parse(result.stdout) as StatusReport };
}

async function depth(queue: string): Promise<number> {
  const channel = await broker.createChannel();
  try {
    return (await channel.checkQueue(queue)).messageCount;
  } finally {
    await channel.close();
  }
}

beforeAll(async () => {
  vhost = await createTestVhost("ops-status");
  broker = await connect(vhost.url);
  const channel = await broker.createChannel();
  await declareTopology(channel, PLATFORM_TOPOLOGY);
  await channel.close();
  database = await createTestDatabase({
    label: "ops_status",
    prepare: async (url) => void (await migrateFilingDatabase(url)),
    templateKey: `filing:${filingMigrationsFingerprint()}`,
  });
  const logger = createLogger({ service: "ops-status-test", level: "silent" });
  const filing = await startOpsServer({
    registry: new Registry(),
    checks: {
      database: async () => {
        if (!filingReady) throw new Error("database unreachable");
      },
    },
    port: 0,
    host: "127.0.0.1",
    logger,
  });
  const submitter = await startOpsServer({ registry: submitterMetrics, checks: {}, port: 0, host: "127.0.0.1", logger });
  servers.push(filing, submitter);
  const port = (server: typeof filing) => (server.address() as { port: number }).port;
  breakers.state.set({ breaker: "tax" }, BREAKER_STATE_VALUE.closed);
  env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    AMQP_URL: vhost.url,
    FILING_DATABASE_URL: database.url,
    OPS_URLS: `filing=http://127.0.0.1:${port(filing)},tax-submitter=http://127.0.0.1:${port(submitter)}`,
  };
});

afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  await broker?.close().catch(() => undefined);
  await vhost?.delete();
  await database?.drop();
});

describe("admin status", () => {
  it("prints every queue, each app's readiness, the breakers and the filings, and exits 0 when all is well", async () => {
    const { code, report, stderr } = await status();
    expect(stderr).not.toMatch(/^admin:/m);
    expect(code).toBe(0);
    expect(report.healthy).toBe(true);
    expect(report.problems).toEqual([]);
    if ("error" in report.queues) throw new Error(report.queues.error);
    expect(report.queues.work.map((q) => q.name)).toEqual(PLATFORM_TOPOLOGY.workQueues.map((q) => q.name));
    expect(report.queues.dead_letter.map((q) => q.name)).toEqual(PLATFORM_TOPOLOGY.workQueues.map((q) => `${q.name}.dlq`));
    expect(report.queues.wait.length).toBe(PLATFORM_TOPOLOGY.workQueues.reduce((sum, q) => sum + q.waitTiersMs.length, 0));
    expect(report.queues.dead_letter.find((q) => q.name === "billing.events.dlq")).toEqual({
      name: "billing.events.dlq",
      work_queue: "billing.events",
      messages: 0,
      consumers: 0,
    });
    // RPC queues are declared by their servers: none runs here
    expect(report.queues.rpc.every((q) => q.missing)).toBe(true);
    expect(report.apps.map((app) => [app.name, app.status])).toEqual([
      ["filing", "ready"],
      ["tax-submitter", "ready"],
    ]);
    expect(report.breakers).toEqual([{ app: "tax-submitter", breaker: "tax", state: "closed" }]);
    expect(report.filings).toEqual({
      submitted: { last_5m: 0, last_60m: 0 },
      accepted: { last_5m: 0, last_60m: 0 },
      rejected: { last_5m: 0, last_60m: 0 },
      errored: { last_5m: 0, last_60m: 0 },
      oldest_unfinished_age_seconds: null,
      oldest_unfinished: [],
    });
  });

  it("exits 1 and says why when a dead-letter queue holds a message, an app is not ready, a breaker is open", async () => {
    const channel = await broker.createConfirmChannel();
    channel.sendToQueue("billing.events.dlq", Buffer.from("{}"), { messageId: "msg-parked-1", type: "filing.accepted" });
    await channel.waitForConfirms();
    await channel.close();
    filingReady = false;
    breakers.state.set({ breaker: "tax" }, BREAKER_STATE_VALUE.open);

    const { code, report } = await status();
    expect(code).toBe(1);
    expect(report.healthy).toBe(false);
    expect(report.problems).toEqual([
      "dead-letter queue billing.events.dlq holds 1 message(s)",
      "app filing is not ready (database: database unreachable)",
      "breaker tax of tax-submitter is open",
    ]);
  });

  it("replays the parking lot with npm only, after which status is healthy again", async () => {
    const replayed = await adminWithNpm(["replay-dead-letters", "--queue", "billing.events"]);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout)).toMatchObject({
      queue: "billing.events",
      replayed: 1,
      kept: 0,
      messages: [{ messageId: "msg-parked-1" }],
    });
    expect(await depth("billing.events.dlq")).toBe(0);
    expect(await depth("billing.events")).toBe(1);
    filingReady = true;
    breakers.state.set({ breaker: "tax" }, BREAKER_STATE_VALUE.closed);
    const { code, report } = await status();
    expect(report.problems).toEqual([]);
    expect(code).toBe(0);
  });

  it("exits 1 when the broker or the filing database cannot be read", async () => {
    env = { ...env, AMQP_URL: "amqp://guest:guest@127.0.0.1:1/", FILING_DATABASE_URL: `${database.url}_missing` };
    try {
      const { code, report } = await status();
      expect(code).toBe(1);
      expect(report.problems).toEqual([
        expect.stringMatching(/^the queues could not be read: admin queues exited 1/),
        expect.stringMatching(/^the filing activity could not be read: admin filing-activity exited 1/),
      ]);
    } finally {
      env = { ...env, AMQP_URL: vhost.url, FILING_DATABASE_URL: database.url };
    }
  });

  it("--watch redraws the table every 2 s until Ctrl-C, then exits 0", async () => {
    // what `npm run admin` runs; npm's own exit on a signal is npm's
    const child: ChildProcess = spawn(process.execPath, ["scripts/run-ts.mjs", "scripts/admin.mjs", "status", "--watch"], {
      cwd: repoRoot,
      env,
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const started = Date.now();
    while (stdout.split("\x1b[2J").length < 3 && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const frames = stdout.split("\x1b[2J\x1b[H").filter((frame) => frame !== "");
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(frames[0]).toMatch(/^dormant status \S+ {2}HEALTHY\n/);
    expect(frames[0]).toContain("billing.events.dlq");
    expect(frames[0]).toMatch(/tax-submitter\s+ready/);
    process.kill(-(child.pid as number), "SIGINT"); // Ctrl-C: the terminal signals the whole process group
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/^admin:|Error/m);
  });
});

describe("admin help", () => {
  it("admin --help lists every command, admin COMMAND --help its options; both exit 0", async () => {
    const all = await admin(["--help"]);
    expect(all.code).toBe(0);
    for (const command of ["status [--watch]", "queues", "replay-dead-letters --queue", "filing-activity", "create-account", "reconcile"]) {
      expect(all.stdout).toContain(`admin ${command}`);
    }
    const one = await admin(["replay-dead-letters", "--help"]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^usage:\n {2}admin replay-dead-letters --queue WORK_QUEUE/);
    expect(one.stdout).toContain("--dry-run");
    expect(one.stdout).not.toContain("admin status [--watch]");
    const unknown = await admin(["no-such-command", "--help"]);
    expect(unknown.code).toBe(2);
  });
});
