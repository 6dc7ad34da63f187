// Sustained CT600 submissions per second against a running simulator: distinct valid nil
// returns (each its own company number and UTR, so every one is schema-validated), built with
// @dormant/govtalk and posted with a fixed number of requests in flight for a fixed time.
//
//   SIM_PORT=4199 LOG_LEVEL=warn node --import tsx src/main.ts &
//   node --import tsx scripts/load-tax-submit.ts --url http://127.0.0.1:4199 --seconds 10 --concurrency 32
//
// Only loopback addresses are accepted as a target; the run stops by itself after --seconds.
import { parseArgs } from "node:util";
import { buildCt600SubmitMessage, parseCt600Response } from "@dormant/govtalk";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:4100" },
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "32" },
  },
});
const base = new URL(values.url);
if (!["127.0.0.1", "localhost", "[::1]"].includes(base.hostname)) {
  throw new Error(`refusing to load ${base.hostname}: only a simulator on this machine (loopback) is a target`);
}
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
if (!(seconds > 0 && seconds <= 120) || !(Number.isInteger(concurrency) && concurrency > 0 && concurrency <= 256)) {
  throw new Error("--seconds must be in (0, 120] and --concurrency an integer in [1, 256]");
}
const submissionUrl = new URL(`${base.pathname.replace(/\/+$/, "")}/tax/submission`, base).toString();

/** The n-th distinct return: company number and UTR both derived from n (a run-specific offset keeps runs apart). */
const offset = Date.now() % 1_000_000;
function distinctReturn(n: number): string {
  const serial = String((offset + n) % 100_000_000).padStart(8, "0");
  return buildCt600SubmitMessage({
    utr: `7${serial.slice(-9).padStart(9, "0")}`,
    companyName: `Load Test ${serial} Limited`,
    companyNumber: `7${serial.slice(-7)}`,
    periodStart: "2025-04-01",
    periodEnd: "2026-03-31",
    declarantName: "Ada Lovelace",
    declarantStatus: "Director",
    vendorId: "1234",
    productName: "Dormant Filing Platform",
    productVersion: "1.0.0",
    gatewayTest: true,
    senderId: "LOADTEST",
    password: "load-test-password",
  }).xml;
}

const counts = { acknowledged: 0, errors: 0, failed: 0 };
const latencies: number[] = [];
const deadline = performance.now() + seconds * 1000;
let next = 0;

async function client(): Promise<void> {
  while (performance.now() < deadline) {
    const xml = distinctReturn(next++);
    const started = performance.now();
    try {
      const response = await fetch(submissionUrl, { method: "POST", headers: { "content-type": "text/xml" }, body: xml });
      const answer = parseCt600Response(await response.text());
      if (answer.type === "acknowledgement") counts.acknowledged += 1;
      else counts.errors += 1;
    } catch {
      counts.failed += 1;
    }
    if (performance.now() <= deadline) latencies.push(performance.now() - started);
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, () => client()));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const percentile = (p: number) => (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(0);
console.log(
  JSON.stringify({
    seconds: Number(elapsed.toFixed(1)),
    concurrency,
    acknowledged: counts.acknowledged,
    errorAnswers: counts.errors,
    failedRequests: counts.failed,
    acceptedPerSecond: Number((counts.acknowledged / elapsed).toFixed(1)),
    latencyMs: { p50: percentile(0.5), p99: percentile(0.99) },
  }),
);
