// Scaling the tax submitter out: completed filings per second with 1, 2 and 4 replicas against
// the authority simulator answering every request after 1 s. Writes its section of
// docs/benchmarks.md. Run: npm run --silent bench:submitters, or
// `node --import tsx apps/tax-submitter/bench/scale-bench.ts [--replicas 1,2,4] [--rounds 3] [--measure-s 30]`.
//
// Each replica is a real `node --import tsx src/main.ts` process (as `npm start` runs it) with
// SUBMIT_PREFETCH submits and POLL_PREFETCH polls at once. This process plays the filing service:
// it keeps FILINGS_PER_REPLICA x replicas one-part CT600 filings in flight (a new `tax.submit_part`
// RPC as each final outcome arrives on `filing.outcomes`) and counts the outcomes per second.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestSim, testConfig } from "@dormant/authority-sim/testing";
import { connectBus } from "@dormant/bus";
import {
  DEVELOPMENT_SEALING_KEY,
  PLATFORM_MESSAGE_CATALOG,
  PLATFORM_TOPOLOGY,
  SUBMISSION_RPC_CATALOG,
  TAX_SUBMIT_QUEUE,
  sealSecret,
  sealingKeyFromBase64,
  submissionBinding,
  type SubmitTaxPartRequest,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, createTestVhost, getFreePort, waitFor } from "@dormant/testing";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(appDir, "..", "..");

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

const REPLICA_COUNTS = option("replicas", "1,2,4").split(",").map(Number);
const WARM_UP_S = Number(option("warm-up-s", "15"));
const MEASURE_S = Number(option("measure-s", "30"));
/** What bounds a replica: submits and polls it works at once (each authority request takes 1 s). */
const SUBMIT_PREFETCH = Number(option("submit-prefetch", "2"));
const POLL_PREFETCH = Number(option("poll-prefetch", "16"));
/** Filings the client keeps in flight per replica: more than a replica can work, so none idles. */
const FILINGS_PER_REPLICA = Number(option("filings-per-replica", "20"));
const AUTHORITY_DELAY_MS = 1_000;
const ROUNDS = Number(option("rounds", "3"));
const WRITE = !process.argv.includes("--no-write");

const logger = createLogger({ service: "submitter-scale-bench", level: "warn" });
const devKey = sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64);

function partRequest(): SubmitTaxPartRequest {
  const filingId = `fil_${randomUUID().replaceAll("-", "")}`;
  return {
    filing_id: filingId,
    part_number: 1,
    parts_total: 1,
    company: { number: "00000001", name: "Lovelace Engines Limited", utr: "8596148860" },
    period: { start: "2025-04-01", end: "2026-03-31" },
    declarant: { name: "Augusta Ada Lovelace", status: "Director" },
    credentials: sealSecret(
      { government_gateway_id: "GGUSER01", government_gateway_password: "correct horse battery" },
      devKey,
      submissionBinding(filingId, 1),
    ),
  };
}

/** CPU seconds (user + system) a process used so far. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Replica {
  child: ChildProcess;
  opsPort: number;
  output: string[];
}

async function startReplica(env: Record<string, string>): Promise<Replica> {
  const opsPort = await getFreePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: appDir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env, OPS_PORT: String(opsPort) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`a replica exited: ${output.join("")}`);
        return (await fetch(`http://127.0.0.1:${opsPort}/readyz`)).ok;
      },
      { timeoutMs: 90_000, intervalMs: 200, what: "a tax-submitter replica to be ready" },
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${String(error)}\n${output.join("")}`);
  }
  return { child, opsPort, output };
}

async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null) return;
  replica.child.kill("SIGTERM");
  const timer = setTimeout(() => replica.child.kill("SIGKILL"), 20_000);
  await once(replica.child, "exit");
  clearTimeout(timer);
}

interface RunResult {
  replicas: number;
  completed: number;
  perSecond: number;
  accepted: number;
  otherOutcomes: Record<string, number>;
  submitErrors: number;
  submitP50Ms: number;
  completeP50Ms: number;
  completeP99Ms: number;
  authorityRequestsPerSecond: number;
  replicaCpuPercent: number;
  /** Slots the replicas took under the shared limits (their `authority_limit_wait_seconds_count`). */
  slotsGranted: number;
  /** The machine's 1-minute load average at the end of the measurement. */
  load1: number;
}

/** The sum of a metric's samples with these labels on a replica's /metrics. */
async function metricSum(replica: Replica, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${replica.opsPort}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

async function run(replicaCount: number): Promise<RunResult> {
  const label = `scale-bench-${replicaCount}`;
  const vhost = await createTestVhost(label);
  const redis = createTestRedisPrefix(label);
  // The simulator in this process, its fast timing (outcome 2 s after the acknowledgement, polls
  // every second), without HMRC's business-rules check (an xsltproc run per return would measure
  // the simulator's CPU, not the submitters), and every tax request answered after 1 s.
  const base = testConfig();
  const sim = await startTestSim({
    timing: { mode: "fast", outcomeDelayMs: 2_000, pollIntervalSeconds: 1 },
    tax: { ...base.tax, businessRules: false },
    hangMs: 60_000,
  });
  const simControl = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sim.urls.control}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`sim control ${method} ${path}: HTTP ${response.status}`);
    return response.json();
  };
  await simControl("POST", "/faults", { target: "tax", slowMs: AUTHORITY_DELAY_MS });

  const env = {
    NODE_ENV: "test",
    LOG_LEVEL: "warn",
    LOG_FORMAT: "json",
    AMQP_URL: vhost.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: redis.prefix,
    OPS_HOST: "127.0.0.1",
    TAX_BASE_URL: sim.urls.tax,
    TAX_VENDOR_ID: "1234",
    SUBMIT_PREFETCH: String(SUBMIT_PREFETCH),
    POLL_PREFETCH: String(POLL_PREFETCH),
    AUTHORITY_TIMEOUT_MS: "15000",
    POLL_GIVE_UP_AFTER_SECONDS: "300",
    // The shared limits are on (every request takes a slot in Redis) but above what 4 replicas send.
    AUTHORITY_MAX_CONCURRENT: "1000",
    AUTHORITY_MAX_PER_SECOND: "1000",
  };
  const replicas: Replica[] = [];
  const bus = await connectBus({
    url: vhost.url,
    service: "filing-bench",
    topology: PLATFORM_TOPOLOGY,
    messages: PLATFORM_MESSAGE_CATALOG,
    rpc: SUBMISSION_RPC_CATALOG,
    logger,
  });
  const submittedAt = new Map<string, number>();
  const completions: Array<{ at: number; outcome: string; tookMs: number }> = [];
  const submitLatencies: Array<{ at: number; ms: number }> = [];
  let submitErrors = 0;
  let stopping = false;

  const submitOne = (): void => {
    if (stopping) return;
    const request = partRequest();
    const sentAt = Date.now();
    submittedAt.set(request.filing_id, sentAt);
    bus.rpcCall(TAX_SUBMIT_QUEUE, "tax.submit_part", request, { timeoutMs: 120_000 }).then(
      () => submitLatencies.push({ at: Date.now(), ms: Date.now() - sentAt }),
      () => {
        submitErrors += 1;
        submittedAt.delete(request.filing_id);
        setTimeout(submitOne, 100);
      },
    );
  };
  await bus.consume("filing.outcomes", {
    "tax.part_outcome": async (message) => {
      const sentAt = submittedAt.get(message.payload.filing_id);
      if (sentAt === undefined) return;
      submittedAt.delete(message.payload.filing_id);
      completions.push({ at: Date.now(), outcome: message.payload.outcome, tookMs: Date.now() - sentAt });
      submitOne();
    },
    "tax.part_polling": async () => undefined,
    "registry.outcome": async () => undefined,
    "registry.status": async () => undefined,
  });

  try {
    for (let i = 0; i < replicaCount; i++) replicas.push(await startReplica(env));
    for (let i = 0; i < FILINGS_PER_REPLICA * replicaCount; i++) submitOne();
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_S * 1000));
    const cpuBefore = replicas.reduce((sum, r) => sum + cpuSeconds(r.child.pid), 0);
    const receivedBefore = ((await simControl("GET", "/received?target=tax")) as { count: number }).count;
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, MEASURE_S * 1000));
    const to = Date.now();
    const cpuAfter = replicas.reduce((sum, r) => sum + cpuSeconds(r.child.pid), 0);
    const receivedAfter = ((await simControl("GET", "/received?target=tax")) as { count: number }).count;
    stopping = true;
    let slotsGranted = 0;
    for (const replica of replicas) {
      slotsGranted += await metricSum(replica, "authority_limit_wait_seconds_count", 'result="granted"');
    }

    const inWindow = completions.filter((c) => c.at >= from && c.at < to);
    const otherOutcomes: Record<string, number> = {};
    for (const c of inWindow) if (c.outcome !== "accepted") otherOutcomes[c.outcome] = (otherOutcomes[c.outcome] ?? 0) + 1;
    const seconds = (to - from) / 1000;
    return {
      replicas: replicaCount,
      completed: inWindow.length,
      perSecond: inWindow.length / seconds,
      accepted: inWindow.filter((c) => c.outcome === "accepted").length,
      otherOutcomes,
      submitErrors,
      submitP50Ms: percentile(
        submitLatencies.filter((s) => s.at >= from && s.at < to).map((s) => s.ms),
        50,
      ),
      completeP50Ms: percentile(
        inWindow.map((c) => c.tookMs),
        50,
      ),
      completeP99Ms: percentile(
        inWindow.map((c) => c.tookMs),
        99,
      ),
      authorityRequestsPerSecond: (receivedAfter - receivedBefore) / seconds,
      replicaCpuPercent: ((cpuAfter - cpuBefore) / seconds) * 100,
      slotsGranted,
      load1: loadavg()[0]!,
    };
  } finally {
    stopping = true;
    await Promise.all(replicas.map(stopReplica));
    await bus.close().catch(() => undefined);
    await sim.close();
    await redis.cleanup();
    await vhost.delete();
  }
}

function cpuModel(): string {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("model name"));
    return line?.split(":")[1]?.trim() ?? cpus()[0]?.model ?? "unknown";
  } catch {
    return cpus()[0]?.model ?? "unknown";
  }
}

/** A round's throughput of `r` relative to its own single replica. */
function ratioIn(round: RunResult[], r: RunResult): number {
  const one = round.find((x) => x.replicas === 1);
  return one ? r.perSecond / one.perSecond : Number.NaN;
}

function report(rounds: RunResult[][], startedAt: Date, loadBefore: number[]): string {
  const most = Math.max(...REPLICA_COUNTS);
  const byLargest = (round: RunResult[]) => ratioIn(round, round.find((r) => r.replicas === most)!);
  const median = [...rounds].sort((a, b) => byLargest(a) - byLargest(b))[Math.floor((rounds.length - 1) / 2)]!;
  const results = median;
  const ratio = (r: RunResult) => ratioIn(median, r);
  const everyRound = rounds
    .map(
      (round, index) =>
        `${index + 1}: ${round.map((r) => `${r.replicas} → ${r.perSecond.toFixed(2)}/s (${ratioIn(round, r).toFixed(2)}x, load ${r.load1.toFixed(1)})`).join(", ")}`,
    )
    .join("; ");
  const goal: Record<number, number> = { 2: 1.8, 4: 3.2 };
  const rows = results.map((r) => {
    const g = goal[r.replicas];
    const met = g === undefined ? "" : ratio(r) >= g ? `${g}x: met` : `${g}x: **not met**`;
    const other = Object.keys(r.otherOutcomes).length ? JSON.stringify(r.otherOutcomes) : "none";
    return `| ${r.replicas} | ${r.perSecond.toFixed(2)} | ${ratio(r).toFixed(2)}x | ${met} | ${r.completed} (${r.accepted} accepted; other: ${other}) | ${r.authorityRequestsPerSecond.toFixed(1)} | ${Math.round(r.submitP50Ms)} | ${Math.round(r.completeP50Ms)} / ${Math.round(r.completeP99Ms)} | ${Math.round(r.replicaCpuPercent)} % | ${r.submitErrors} | ${r.slotsGranted} |`;
  });
  const load = loadavg().map((l) => l.toFixed(2));
  return [
    "<!-- submitter-scale:start -->",
    "## Scaling the tax submitter out (1, 2 and 4 replicas, authority answering after 1 s)",
    "",
    "Written by `npm run --silent bench:submitters` (or `node --import tsx apps/tax-submitter/bench/scale-bench.ts`; options `--replicas 1,2,4 --rounds 3 --warm-up-s 15 --measure-s 30 --submit-prefetch 2 --poll-prefetch 16`; not part of `npm test`), about 12 minutes; run it again to refresh.",
    "",
    `Median round (by the ${most}-replica ratio) of ${rounds.length}:`,
    "",
    "| replicas | completed filings/s | vs 1 replica | goal | completed in the window | authority requests/s | submit RPC p50 (ms) | submit → outcome p50 / p99 (ms) | CPU of the replicas (one core = 100 %) | submit RPC errors | slots taken in Redis (whole run) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Every round (completed filings/s, ratio to the round's single replica, 1-minute load average at the end): ${everyRound}.`,
    "",
    `The ceiling is replicas × \`SUBMIT_PREFETCH\` / ${AUTHORITY_DELAY_MS / 1000} s = ${results.map((r) => r.replicas * SUBMIT_PREFETCH).join(", ")} filings/s; the median round reached ${results.map((r) => `${Math.round((r.perSecond / (r.replicas * SUBMIT_PREFETCH)) * 100)} %`).join(", ")} of it (what is missing is the time between a submit's answer and the next submit taken from the queue, and the machine's load).`,
    "",
    `- What bounds a replica: with every authority request taking ${AUTHORITY_DELAY_MS / 1000} s, a replica completes at most \`SUBMIT_PREFETCH\` submits a second, so the benchmark sets it explicitly: **\`SUBMIT_PREFETCH=${SUBMIT_PREFETCH}\`** (each replica works ${SUBMIT_PREFETCH} \`tax.submit\` RPCs at once: at most ${SUBMIT_PREFETCH} filings/s per replica) and \`POLL_PREFETCH=${POLL_PREFETCH}\` (each filing also needs 2-3 poll-side requests of 1 s each: a poll, maybe a second, and the delete, so polls never bind). No poll interval is on the path but the authority's own (\`PollInterval\` 1 s).`,
    `- Load: this process plays the filing service: it keeps ${FILINGS_PER_REPLICA} one-part CT600 filings per replica in flight (a new \`tax.submit_part\` RPC on the bus as each final outcome arrives on \`filing.outcomes\`), so the submit queue never runs dry; ${WARM_UP_S} s warm-up, then outcomes counted for ${MEASURE_S} s.`,
    `- The replicas: \`node --import tsx src/main.ts\` processes (as \`npm start\` runs them), \`NODE_ENV=test\`, logs at warn, on a vhost and Redis prefix of their own; the shared limits toward the authority are on (each request takes a slot in Redis) at 1000 in flight and 1000/s, above what they send; breakers shared through Redis.`,
    `- The simulator (in the benchmark's process): fast timing (outcome 2 s after the acknowledgement, \`PollInterval\` 1 s), every tax request held ${AUTHORITY_DELAY_MS} ms before it is handled (\`POST /_control/faults {"target":"tax","slowMs":${AUTHORITY_DELAY_MS}}\`), HMRC's business-rules check off (an xsltproc run per return would measure the simulator's CPU, not the submitters'); every filing company 00000001, accepted.`,
    `- Machine: ${cpus().length} × ${cpuModel()} (lscpu), ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}; shared with other engineers' work while it ran (load average before ${loadBefore.map((l) => l.toFixed(2)).join(" / ")}, after ${load.join(" / ")}): figures move with it.`,
    `- Run at ${startedAt.toISOString()}.`,
    "<!-- submitter-scale:end -->",
  ].join("\n");
}

const startedAt = new Date();
const loadBefore = loadavg();
// Rounds alternate the order (1, 2, 4, then 4, 2, 1, ...) so that a drift in the machine's load
// does not always favour the same count; the report shows the median round by its largest ratio.
const rounds: RunResult[][] = [];
for (let round = 0; round < ROUNDS; round++) {
  const counts = round % 2 === 0 ? REPLICA_COUNTS : [...REPLICA_COUNTS].reverse();
  const results: RunResult[] = [];
  for (const count of counts) {
    const result = await run(count);
    console.log(JSON.stringify({ round: round + 1, ...result }));
    results.push(result);
  }
  rounds.push(results.sort((a, b) => a.replicas - b.replicas));
}
const section = report(rounds, startedAt, loadBefore);
console.log(section);
if (WRITE) {
  const path = join(root, "docs", "benchmarks.md");
  const text = readFileSync(path, "utf8");
  const pattern = /<!-- submitter-scale:start -->[\s\S]*<!-- submitter-scale:end -->/;
  writeFileSync(path, pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}\n`);
}
process.exit(0);
