// The live benchmark (`npm run bench`, after the sandbox one): the whole system as processes in
// production mode against the authority simulator, live submits through the gateway at a
// sustained 20/s, then a ramp to find the highest rate at which every filing completes. Writes
// its own section of docs/benchmarks.md (see tests/system/README.md "Live benchmark").
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import type { Filing } from "@dormant/contracts";
import type { ApiClient } from "../src/harness/api-client.ts";
import { repoRoot } from "../src/harness/paths.ts";
import { startSystem } from "../src/harness/system.ts";
import { isFinal } from "../src/harness/wait-final.ts";
import { accountsNeeded, benchFiling } from "./bench-filings.ts";
import { openLoop, type SubmitSample } from "./open-loop.ts";
import { settlePdfs } from "./pdf-progress.ts";
import { type EchoCpu, EchoServer } from "./echo-cpu.ts";
import { percentile } from "./percentiles.ts";
import type { PhaseWindow } from "./profile-summary.ts";
import { cpuGroups, measureCpu } from "./process-cpu.ts";
import { WebhookSink } from "./webhook-sink.ts";
import { chainMsPerFiling, writeLiveSection, type LiveReport, type PhaseResult } from "./report.ts";

const SUSTAINED_RATE = Number(process.env.BENCH_LIVE_RATE ?? 20);
const SUSTAINED_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 15);
const RAMP_RATES = (process.env.BENCH_LIVE_RAMP ?? "10,15,20,30,50,75,100,110,125,150").split(",").map(Number);
/** `BENCH_LIVE_CPU_PROF=filing,gateway`: V8 CPU profiles of those apps, written when they stop. */
const PROFILED = (process.env.BENCH_LIVE_CPU_PROF ?? "").split(",").filter(Boolean);
const PROFILE_DIR = process.env.BENCH_LIVE_CPU_PROF_DIR ?? "/tmp/dormant-live-bench-profiles";
const RAMP_SECONDS = Number(process.env.BENCH_LIVE_RAMP_SECONDS ?? 10);
/** How long after its last submit a phase's filings may take to become final. */
const SETTLE_SECONDS = 45;
/** Each phase's window on the monotonic clock of V8's CPU profiles, for profile-summary.ts. */
const windows: PhaseWindow[] = [];
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const log = (message: string) => process.stderr.write(`[live-bench] ${message}\n`);

/** Waits until none of `filingIds` is pending or submitted any more (two small list reads a second), or the deadline. */
async function settle(client: ApiClient, filingIds: string[], deadline: number): Promise<void> {
  const ids = new Set(filingIds);
  while (Date.now() < deadline) {
    const open = await Promise.all(["pending", "submitted"].map((status) => client.allFilings({ status }))).catch(() => undefined);
    if (open && !open.flat().some((filing) => ids.has(filing.filing_id))) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Each filing once, 16 at a time, through the key that filed it: its final status and when it was recorded (updated_at). */
async function readFilings(sent: ReadonlyArray<{ client: ApiClient; filingId: string }>): Promise<Map<string, Filing>> {
  const finals = new Map<string, Filing>();
  const queue = [...sent];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
        const answer = await next.client.getFiling(next.filingId);
        if (answer.data) finals.set(next.filingId, answer.data);
      }
    }),
  );
  return finals;
}

/** The filings each key sent (a key sees only its own). */
function byClient(sent: ReadonlyArray<{ client: ApiClient; filingId: string }>): Map<ApiClient, string[]> {
  const groups = new Map<ApiClient, string[]>();
  for (const { client, filingId } of sent) groups.set(client, [...(groups.get(client) ?? []), filingId]);
  return groups;
}

/** Waits until every accepted filing's filing.accepted webhook arrived, or the deadline. */
async function settleWebhooks(sink: WebhookSink, filingIds: string[], deadline: number): Promise<void> {
  while (Date.now() < deadline && filingIds.some((id) => sink.arrivedAt("filing.accepted", id) === undefined)) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface PhaseContext {
  /** Where every account's webhook endpoint points. */
  sink: WebhookSink;
  /** Opens `count` accounts (ample balance and limits) and answers a client of each one's live key. */
  newClients: (count: number) => Promise<ApiClient[]>;
  /** The filing service's database (where rendered PDFs are counted). */
  filingDatabaseUrl: string;
  measure: () => () => Record<string, number>;
}

async function phase(
  { newClients, filingDatabaseUrl, measure, sink }: PhaseContext,
  name: string,
  rate: number,
  seconds: number,
): Promise<PhaseResult> {
  const clients = await newClients(accountsNeeded(Math.round(rate * seconds)));
  log(`${name}: ${rate} submits/s for ${seconds} s (${clients.length} account${clients.length === 1 ? "" : "s"})`);
  const cpu = measure();
  const startUs = monotonicUs();
  const started = Date.now();
  const samples: SubmitSample[] = await openLoop(clients[0]!, {
    rate,
    seconds,
    keyPrefix: `bench-${name}-${started}`,
    request: (index) => benchFiling(clients, index),
  });
  const lastSent = Math.max(...samples.map((sample) => sample.sentAt));
  const accepted202 = samples.flatMap((sample) =>
    sample.status === 202 && sample.filingId ? [{ client: sample.client, filingId: sample.filingId, sentAt: sample.sentAt }] : [],
  );
  const deadline = lastSent + SETTLE_SECONDS * 1000;
  const ids = accepted202.map((sample) => sample.filingId);
  await Promise.all([...byClient(accepted202)].map(([client, filingIds]) => settle(client, filingIds, deadline)));
  // The PDFs are rendered after acceptance (the documents consumer): the phase ends when they are.
  const pdfs = await settlePdfs(filingDatabaseUrl, ids, deadline);
  // CPU and time up to the last PDF; reading the details back is not part of it.
  const cpuSeconds = cpu();
  windows.push({ name, startUs, endUs: monotonicUs(), filings: samples.filter((sample) => sample.status === 202).length });
  const elapsedSeconds = (Date.now() - started) / 1000;
  const finals = await readFilings(accepted202);
  const finalTimes = [...finals.values()].filter((filing) => isFinal(filing.status)).map((filing) => Date.parse(filing.updated_at));
  const toAccepted = accepted202.flatMap((sample) => {
    const filing = finals.get(sample.filingId);
    return filing?.status === "accepted" ? [Date.parse(filing.updated_at) - sample.sentAt] : [];
  });
  const failures: Record<string, number> = {};
  for (const sample of samples)
    if (sample.status !== 202)
      failures[`${sample.status} ${sample.code ?? ""}`.trim()] = (failures[`${sample.status} ${sample.code ?? ""}`.trim()] ?? 0) + 1;
  const statuses: Record<string, number> = {};
  for (const filing of finals.values()) statuses[filing.status] = (statuses[filing.status] ?? 0) + 1;
  const spanSeconds = finalTimes.length > 1 ? (Math.max(...finalTimes) - Math.min(...finalTimes)) / 1000 : Number.NaN;
  const pdfAt = [...pdfs.values()];
  const pdfSpanSeconds = pdfAt.length > 1 ? (Math.max(...pdfAt) - Math.min(...pdfAt)) / 1000 : Number.NaN;
  // Acceptance (the filing's updated_at) -> its filing.accepted webhook at the endpoint.
  const acceptedIds = accepted202.flatMap((sample) => (finals.get(sample.filingId)?.status === "accepted" ? [sample.filingId] : []));
  await settleWebhooks(sink, acceptedIds, Math.max(deadline, Date.now() + 10_000));
  const acceptedToWebhook = acceptedIds.flatMap((id) => {
    const at = sink.arrivedAt("filing.accepted", id);
    return at === undefined ? [] : [at - Date.parse(finals.get(id)!.updated_at)];
  });
  const acceptedToPdf = [...pdfs].flatMap(([id, at]) => {
    const filing = finals.get(id);
    return filing?.status === "accepted" ? [at - Date.parse(filing.updated_at)] : [];
  });
  const result: PhaseResult = {
    name,
    targetRate: rate,
    seconds,
    submits: samples.length,
    sentRate: samples.length / ((lastSent - Math.min(...samples.map((sample) => sample.sentAt))) / 1000 || 1),
    answered202: accepted202.length,
    failures,
    submitP50: percentile(
      samples.map((sample) => sample.latencyMs),
      50,
    ),
    submitP99: percentile(
      samples.map((sample) => sample.latencyMs),
      99,
    ),
    final: finalTimes.length,
    statuses,
    toAcceptedP50: percentile(toAccepted, 50),
    toAcceptedP99: percentile(toAccepted, 99),
    completionRate: finalTimes.length / spanSeconds,
    pdfs: pdfs.size,
    pdfRate: pdfs.size / pdfSpanSeconds,
    acceptedToPdfP50: percentile(acceptedToPdf, 50),
    acceptedToPdfP99: percentile(acceptedToPdf, 99),
    webhooks: acceptedToWebhook.length,
    acceptedToWebhookP50: percentile(acceptedToWebhook, 50),
    acceptedToWebhookP99: percentile(acceptedToWebhook, 99),
    cpuSeconds,
    elapsedSeconds,
  };
  result.sustained =
    result.answered202 === result.submits &&
    (statuses.accepted ?? 0) === result.submits &&
    result.completionRate >= 0.9 * rate &&
    result.pdfs === result.submits &&
    result.pdfRate >= 0.9 * rate;
  log(
    `${name}: ${result.answered202}/${result.submits} answered 202, submit p50 ${result.submitP50.toFixed(0)} ms p99 ${result.submitP99.toFixed(0)} ms, ` +
      `${result.final} final (${JSON.stringify(statuses)}), to accepted p50 ${result.toAcceptedP50.toFixed(0)} ms p99 ${result.toAcceptedP99.toFixed(0)} ms, ` +
      `completing ${result.completionRate.toFixed(1)}/s, ${result.pdfs} with PDFs (${result.pdfRate.toFixed(1)}/s, accepted → PDF p50 ${result.acceptedToPdfP50.toFixed(0)} ms p99 ${result.acceptedToPdfP99.toFixed(0)} ms), ` +
      `${result.webhooks} filing.accepted webhooks (accepted → webhook p50 ${result.acceptedToWebhookP50.toFixed(0)} ms p99 ${result.acceptedToWebhookP99.toFixed(0)} ms)` +
      `${result.sustained ? "" : " (NOT sustained)"}`,
  );
  const perFiling = Object.entries(cpuSeconds).map(
    ([group, seconds]) => `${group} ${((seconds * 1000) / Math.max(1, result.answered202)).toFixed(1)}`,
  );
  log(`${name}: CPU per filing (ms): ${perFiling.join(", ")}; the chain ${chainMsPerFiling(result).toFixed(1)}`);
  return result;
}

/** The commit measured (with "+changes" when the working tree differs from it). */
function commitOf(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();
  try {
    const head = git("rev-parse", "--short", "HEAD");
    return git("status", "--porcelain", "--untracked-files=no") === "" ? head : `${head}+changes`;
  } catch {
    return "unknown";
  }
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const sink = await WebhookSink.start();
  const echoCpu: EchoCpu[] = [];
  let echo: EchoServer | undefined;
  log("starting the system (seven processes, production mode, JSON logs at info) on its own databases, vhost and Redis prefix");
  const system = await startSystem({
    label: "bench",
    mode: "production",
    logLevel: process.env.BENCH_LIVE_LOG_LEVEL ?? "info",
    nodeArgs: Object.fromEntries(PROFILED.map((app) => [app, ["--cpu-prof", `--cpu-prof-dir=${join(PROFILE_DIR, app)}`]])),
    // The bench measures the platform, not the tax authority's rules engine: the simulator's
    // check of every CT600 against HMRC's business rules (xsltproc, ~90 ms of CPU a return) is
    // off here, as it is on the real authority's side of the wire.
    // The notifier delivers to the benchmark's HTTPS endpoint on this machine: its self-signed
    // certificate is trusted, and the loopback address allowed (refused by default in production).
    env: {
      "authority-sim": { SIM_BUSINESS_RULES: "off" },
      notifier: { NODE_EXTRA_CA_CERTS: sink.caFile, WEBHOOK_ALLOW_PRIVATE_URLS: "true" },
    },
  });
  try {
    let opened = 0;
    const newClients = (count: number) =>
      Promise.all(
        Array.from({ length: count }, async () => {
          opened += 1;
          const account = await system.createAccount({
            balancePence: 1_000_000_000,
            name: `Live bench ${opened}`,
            ratePerMinute: 10_000_000,
            ratePerDay: 1_000_000_000,
          });
          const client = system.client(account.liveKey);
          // Every account is an agent with a webhook endpoint: each acceptance is pushed to it.
          const endpoint = await client.request("POST", "/webhook_endpoints", { body: { url: sink.url, events: ["filing.accepted"] } });
          if (endpoint.status !== 201)
            throw new Error(`POST /webhook_endpoints answered ${endpoint.status}: ${JSON.stringify(endpoint.error)}`);
          return client;
        }),
      );
    const groups = cpuGroups(Object.fromEntries(Object.entries(system.apps).map(([name, app]) => [name, app.pid])));
    const context: PhaseContext = {
      newClients,
      filingDatabaseUrl: system.databases.filing.url,
      measure: () => measureCpu(groups),
      sink,
    };
    // The yardstick: the bare echo server's CPU per request, before and after the phases.
    echo = await EchoServer.start();
    echoCpu.push(await echo.measure());
    log(`echo server: ${echoCpu[0]!.usPerRequest.toFixed(0)} µs of CPU per request (${echoCpu[0]!.requests} requests)`);
    log("warming up (20 submits)");
    await phase(context, "warm-up", 10, 2);

    const sustained = await phase(context, "sustained", SUSTAINED_RATE, SUSTAINED_SECONDS);
    const ramp: PhaseResult[] = [];
    for (const rate of RAMP_RATES) {
      const step = await phase(context, `ramp-${rate}`, rate, RAMP_SECONDS);
      ramp.push(step);
      if (!step.sustained) break;
    }
    echoCpu.push(await echo.measure());
    log(`echo server: ${echoCpu[1]!.usPerRequest.toFixed(0)} µs of CPU per request (${echoCpu[1]!.requests} requests)`);
    const crashes = system.crashReport();
    if (crashes) throw new Error(`an app crashed during the benchmark:\n${crashes}`);
    const report: LiveReport = {
      sustained,
      ramp,
      command: "npm run bench",
      commit: commitOf(),
      echo: echoCpu,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}`,
      loadBefore,
      loadAfter: loadavg(),
      at: new Date().toISOString(),
    };
    writeLiveSection(join(repoRoot, "docs", "benchmarks.md"), report);
    log("wrote the live section of docs/benchmarks.md");
  } finally {
    await system.stop();
    await sink.close();
    await echo?.stop();
    if (PROFILED.length > 0) {
      mkdirSync(PROFILE_DIR, { recursive: true });
      writeFileSync(join(PROFILE_DIR, "phases.json"), `${JSON.stringify(windows, null, 2)}\n`);
      log(`CPU profiles in ${PROFILE_DIR}; summary: node --import tsx tests/system/bench/profile-summary.ts ${PROFILE_DIR}`);
    }
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
