// What PDF rendering does to the filing service's event loop: renders a burst of CT600 PDFs the
// way the filing.documents consumer does (DOCUMENTS_PREFETCH events at once, each render followed
// by a turn of the loop, where the consumer writes to the database), inline or on render threads,
// while a 5 ms timer chain measures how late the event loop runs a timer (how long a submit's
// next step waits behind rendering): p50 / p99 / max of that delay, the event loop's
// utilisation, and the burst's PDFs per second.
//
//   cd apps/filing && node --import tsx bench/render-bench.ts [threads=1] [pdfs=80] [concurrency=2]
//
// Prints one JSON line. Run it under `flock /tmp/bench.lock` on a shared machine.
import { performance } from "node:perf_hooks";
import { setImmediate as turn } from "node:timers/promises";
import { createLogger } from "@dormant/service-kit";
import { WARM_UP_JOB, type PdfJob } from "../src/documents/pdf-jobs.ts";
import { createInlineRenderer, type PdfRenderer } from "../src/documents/pdf-renderer.ts";
import { RenderPool } from "../src/documents/render-pool.ts";

const [threads = 1, pdfs = 80, concurrency = 2] = process.argv.slice(2).map(Number);
const logger = createLogger({ service: "render-bench", level: "warn" });

let renderer: PdfRenderer;
if (threads === 0) {
  renderer = createInlineRenderer();
  await renderer.render(WARM_UP_JOB); // the faces parsed, as in a running service
} else {
  const pool = new RenderPool({ threads, logger });
  pool.start();
  await pool.whenReady();
  renderer = pool;
}
const jobs: PdfJob[] = Array.from({ length: pdfs }, (_, i) => ({
  type: "ct600_pdf",
  input: { ...(WARM_UP_JOB.input as Extract<PdfJob, { type: "ct600_pdf" }>["input"]), companyName: `BENCH ${i} LIMITED` },
}));

// A 5 ms timer chain: how late each timer runs (ms beyond its 5 ms).
const SAMPLE_MS = 5;
const lateness: number[] = [];
let sampling = true;
let due = performance.now() + SAMPLE_MS;
const sample = () => {
  const now = performance.now();
  lateness.push(Math.max(0, now - due));
  due = now + SAMPLE_MS;
  if (sampling) setTimeout(sample, SAMPLE_MS);
};
setTimeout(sample, SAMPLE_MS);

const elu = performance.eventLoopUtilization();
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < jobs.length) {
      await renderer.render(jobs[next++]!);
      await turn();
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
sampling = false;
const utilization = performance.eventLoopUtilization(elu).utilization;
await renderer.close();

lateness.sort((a, b) => a - b);
const percentile = (p: number) =>
  Math.round((lateness[Math.min(lateness.length - 1, Math.floor((p / 100) * lateness.length))] ?? 0) * 10) / 10;
console.log(
  JSON.stringify({
    mode: threads === 0 ? "inline" : `${threads} thread(s)`,
    pdfs,
    concurrency,
    seconds: Math.round(seconds * 100) / 100,
    pdfs_per_second: Math.round((pdfs / seconds) * 10) / 10,
    timer_delay_ms: {
      samples: lateness.length,
      p50: percentile(50),
      p99: percentile(99),
      max: Math.round((lateness.at(-1) ?? 0) * 10) / 10,
    },
    event_loop_utilization: Math.round(utilization * 100) / 100,
  }),
);
