import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import {
  createTestRedisPrefix,
  createTestVhost,
  getFreePort,
  waitFor,
  type TestDatabase,
  type TestRedis,
  type TestVhost,
} from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { acceptSeededPart, seedCt600Filing } from "../test-support/seed.ts";

// The filing service as its own OS process, started the way the system tests' harness and the
// live benchmark start it in production mode (`node --import tsx --import
// @dormant/service-kit/tracing/register src/main.ts` in the app's folder, NODE_ENV=production,
// nothing inherited from the test runner): its render thread must start there (without the
// process's preloads: it registers tsx itself), render the PDFs of an accepted filing off the event
// loop, and stop with the process.
const APP_DIR = fileURLToPath(new URL("../../", import.meta.url));
let database: TestDatabase;
let vhost: TestVhost;
let redis: TestRedis;
let db: FilingDb;
let child: ChildProcess;
let opsUrl: string;
const output: string[] = [];

beforeAll(async () => {
  database = await createFilingTestDatabase("render_process");
  vhost = await createTestVhost("filing-render-process");
  redis = createTestRedisPrefix("filing-render-process");
  db = createFilingDb(database.url);
  const port = await getFreePort();
  opsUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ["--import", "tsx", "--import", "@dormant/service-kit/tracing/register", "src/main.ts"], {
    cwd: APP_DIR,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      LOG_LEVEL: "debug",
      LOG_FORMAT: "json",
      CREDENTIALS_SEALING_KEY: randomBytes(32).toString("base64"),
      CREDENTIALS_SEALING_KEY_ID: "render1",
      FILING_DATABASE_URL: database.url,
      AMQP_URL: vhost.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
      OPS_PORT: String(port),
      OPS_HOST: "127.0.0.1",
      OUTBOX_RELAY_INTERVAL_MS: "100",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr])
    stream?.on("data", (chunk: Buffer) => output.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`the filing service exited while starting:\n${output.slice(-20).join("\n")}`);
      return (await fetch(`${opsUrl}/readyz`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 60_000, intervalMs: 200, what: "the filing service ready" },
  );
}, 90_000);
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await db?.$disconnect();
  await vhost?.delete();
  await redis?.cleanup();
  await database?.drop();
});

const logged = (msg: string) => output.filter((line) => line.includes(`"msg":"${msg}"`));
const metric = async (name: string) =>
  (await (await fetch(`${opsUrl}/metrics`)).text())
    .split("\n")
    .filter((line) => line.startsWith(name))
    .join("\n");

describe("the filing process in production mode", () => {
  it("renders an accepted filing's PDFs on its render thread, and stops cleanly", async () => {
    const filing = await seedCt600Filing(db, 2);
    for (const part of [1, 2]) await acceptSeededPart(db, filing, part);
    // The process's outbox relay publishes filing.accepted; its filing.documents consumer renders.
    await waitFor(async () => (await db.document.count({ where: { filingId: filing.id, type: "ct600_pdf" } })) === 2, {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: "both ct600_pdf documents stored",
    });
    const pdfs = await db.document.findMany({ where: { filingId: filing.id, type: "ct600_pdf" }, select: { content: true } });
    for (const { content } of pdfs) expect(Buffer.from(content).subarray(0, 5).toString()).toBe("%PDF-");

    expect(logged("PDF render thread ready")).toHaveLength(1);
    expect(await metric("filing_document_render_seconds_count")).toMatch(
      /filing_document_render_seconds_count\{[^}]*type="ct600_pdf"[^}]*mode="thread"[^}]*\} 2$/m,
    );
    expect(await metric("filing_document_render_threads_lost_total")).not.toMatch(/ [1-9]\d*$/m);

    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(logged("PDF render thread lost; starting another")).toEqual([]);
    expect(output.filter((line) => /"level":"(error|fatal)"/.test(line))).toEqual([]);
  });
});
