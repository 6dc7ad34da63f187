// Summarises the V8 CPU profiles the live benchmark writes (BENCH_LIVE_CPU_PROF=<app>): CPU per
// filing of each thread within one phase, by cause (the library or code nearest the sampled leaf)
// and the top frames by self time.
//
//   node --import tsx tests/system/bench/profile-summary.ts [dir] [--phase sustained] [--top 25]
//
// `dir` (default /tmp/dormant-live-bench-profiles) holds one folder per app with its
// *.cpuprofile files (the main thread and any worker threads) and phases.json, written by the
// benchmark: each phase's window on the monotonic clock the profiles use, and its filings.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface PhaseWindow {
  name: string;
  /** Microseconds on the monotonic clock (process.hrtime), the clock of V8's profiles. */
  startUs: number;
  endUs: number;
  filings: number;
}

/** Causes, tried from the sampled leaf toward the root: the first frame whose URL matches names the cause. */
const CAUSES: ReadonlyArray<[string, RegExp]> = [
  [
    "logging (pino)",
    /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(pino|sonic-boom|fast-redact|@pinojs|quick-format-unescaped|fast-safe-stringify|thread-stream)\//,
  ],
  ["zod", /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?zod\//],
  ["Prisma", /@prisma\/|\/generated\/prisma\/|prisma-client|query_compiler|query_engine/],
  [
    "pg driver",
    /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(pg|pg-protocol|pg-pool|pg-types|postgres-array|postgres-date|pg-cloudflare)\//,
  ],
  ["OpenTelemetry", /@opentelemetry\//],
  ["amqplib", /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(amqplib|buffer-more-ints|bitsyntax)\//],
  ["PDF / iXBRL (pdfkit, fontkit, documents)", /pdfkit|fontkit|restructure|linebreak|unicode-trie|brotli|png-js|packages\/documents\//],
  ["ioredis", /ioredis|redis-parser|@ioredis/],
  ["prom-client", /prom-client|tdigest|bintrees/],
  ["bus (packages/bus)", /packages\/bus\//],
  ["service-kit", /packages\/service-kit\//],
  ["contracts", /packages\/contracts\//],
  ["filing code", /apps\/filing\//],
  ["notifier code", /apps\/notifier\//],
  ["other node_modules", /node_modules\//],
];
const SPECIAL = new Set(["(garbage collector)", "(program)", "(idle)", "(root)"]);

/**
 * The cause of a sample: the first frame from the leaf whose URL names a library or our code
 * (natives and Node's own modules are skipped, so a socket write is the driver's that made it);
 * Node.js internals only when nothing else is on the stack (I/O and timer callbacks, TLS).
 */
function causeOf(stack: ProfileNode[]): string {
  const leaf = stack[0];
  if (leaf && SPECIAL.has(leaf.callFrame.functionName)) return leaf.callFrame.functionName;
  let nodeInternal = false;
  for (const node of stack) {
    const url = node.callFrame.url;
    if (!url) continue;
    if (url.startsWith("node:")) {
      nodeInternal = true;
      continue;
    }
    for (const [cause, pattern] of CAUSES) if (pattern.test(url)) return cause;
  }
  if (nodeInternal) return "Node.js internals";
  // Natives with no script frame above them.
  return leaf?.callFrame.functionName ? `native: ${leaf.callFrame.functionName}` : "(unattributed)";
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const src = url.search(/(apps|packages)\//);
  return src >= 0 ? url.slice(src) : url;
}

export interface ThreadSummary {
  file: string;
  /** Busy milliseconds (idle excluded) in the window. */
  busyMs: number;
  causes: Map<string, number>;
  selfFrames: Map<string, number>;
  /** Inclusive time of our own code's frames (apps/, packages/): what each handler costs with all it calls. */
  totalFrames: Map<string, number>;
}

/** The samples of `profile` whose time falls within [startUs, endUs], grouped. */
export function summarise(file: string, profile: CpuProfile, startUs: number, endUs: number): ThreadSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stackCache = new Map<number, ProfileNode[]>();
  const stackOf = (id: number): ProfileNode[] => {
    const cached = stackCache.get(id);
    if (cached) return cached;
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) stack.push(node);
    }
    stackCache.set(id, stack);
    return stack;
  };
  const causes = new Map<string, number>();
  const selfFrames = new Map<string, number>();
  const totalFrames = new Map<string, number>();
  let busyMs = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    time += profile.timeDeltas[i] ?? 0;
    // A sample's weight is the time until the next one (the way DevTools counts self time).
    const weightUs = profile.timeDeltas[i + 1] ?? 0;
    if (time < startUs || time > endUs) continue;
    const stack = stackOf(profile.samples[i]!);
    const leaf = stack[0];
    if (!leaf || leaf.callFrame.functionName === "(idle)") continue;
    const ms = weightUs / 1000;
    busyMs += ms;
    const cause = causeOf(stack);
    causes.set(cause, (causes.get(cause) ?? 0) + ms);
    const frame = `${leaf.callFrame.functionName || "(anonymous)"} ${shortUrl(leaf.callFrame.url)}:${leaf.callFrame.lineNumber + 1}`;
    selfFrames.set(frame, (selfFrames.get(frame) ?? 0) + ms);
    const seen = new Set<string>();
    for (const node of stack) {
      const { url, functionName, lineNumber } = node.callFrame;
      if (!/\/(apps|packages)\//.test(url) || url.includes("node_modules")) continue;
      const key = `${functionName || "(anonymous)"} ${shortUrl(url)}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      totalFrames.set(key, (totalFrames.get(key) ?? 0) + ms);
    }
  }
  return { file, busyMs, causes, selfFrames, totalFrames };
}

function main(): void {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const at = args.indexOf(name);
    return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
  };
  const dir = args[0] && !args[0].startsWith("--") ? args[0] : "/tmp/dormant-live-bench-profiles";
  const phaseName = option("--phase", "sustained");
  const top = Number(option("--top", "25"));
  /** `--cpu filing=75,notifier=37.4`: each app's CPU per filing as /proc measured it (the benchmark's log); causes are scaled to it. */
  const measured = new Map(
    option("--cpu", "")
      .split(",")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0]!, Number(pair.split("=")[1])] as const),
  );
  const phases = JSON.parse(readFileSync(join(dir, "phases.json"), "utf8")) as PhaseWindow[];
  const phase = phases.find((p) => p.name === phaseName);
  if (!phase) throw new Error(`no phase ${phaseName} in ${join(dir, "phases.json")}: ${phases.map((p) => p.name).join(", ")}`);
  const perFiling = (ms: number) => (ms / Math.max(1, phase.filings)).toFixed(2);
  process.stdout.write(
    `phase ${phase.name}: ${phase.filings} filings over ${((phase.endUs - phase.startUs) / 1e6).toFixed(1)} s; figures in ms of CPU per filing\n`,
  );
  for (const app of readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const appDir = join(dir, app.name);
    const files = readdirSync(appDir).filter((file) => file.endsWith(".cpuprofile"));
    const threads = files
      .map((file) => summarise(file, JSON.parse(readFileSync(join(appDir, file), "utf8")) as CpuProfile, phase.startUs, phase.endUs))
      .filter((thread) => thread.busyMs > 0)
      .sort((a, b) => b.busyMs - a.busyMs);
    const total = threads.reduce((sum, thread) => sum + thread.busyMs, 0);
    const cpuMs = measured.get(app.name);
    process.stdout.write(
      `\n## ${app.name}: ${perFiling(total)} ms per filing (sampled busy time, all threads; on a loaded machine it counts time the process waited for a core too)${cpuMs ? `; ${cpuMs} ms of CPU per filing measured, by which the shares below are scaled` : ""}\n`,
    );
    const scaled = (ms: number) => (cpuMs ? `${((ms / total) * cpuMs).toFixed(2).padStart(6)} ms  ` : "");
    for (const thread of threads) {
      process.stdout.write(`\n### thread ${thread.file}: ${perFiling(thread.busyMs)} ms per filing\n\nby cause:\n`);
      for (const [cause, ms] of [...thread.causes].sort((a, b) => b[1] - a[1]))
        process.stdout.write(
          `  ${scaled(ms)}${perFiling(ms).padStart(7)}  ${((ms / thread.busyMs) * 100).toFixed(1).padStart(5)} %  ${cause}\n`,
        );
      process.stdout.write("top self frames:\n");
      for (const [frame, ms] of [...thread.selfFrames].sort((a, b) => b[1] - a[1]).slice(0, top))
        process.stdout.write(`  ${perFiling(ms).padStart(7)}  ${((ms / thread.busyMs) * 100).toFixed(1).padStart(5)} %  ${frame}\n`);
      process.stdout.write("top total frames of our code (apps/, packages/):\n");
      for (const [frame, ms] of [...thread.totalFrames].sort((a, b) => b[1] - a[1]).slice(0, top))
        process.stdout.write(`  ${perFiling(ms).padStart(7)}  ${((ms / thread.busyMs) * 100).toFixed(1).padStart(5)} %  ${frame}\n`);
    }
  }
}

if (process.argv[1] && existsSync(process.argv[1]) && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) main();
