import { performance } from "node:perf_hooks";
import { threadId as mainThreadId } from "node:worker_threads";
import { isRetryable } from "@dormant/bus";
import { AppError } from "@dormant/contracts";
import { PdfInputError } from "@dormant/documents";
import { createLogger } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { readPdf } from "../testing/read-pdf.ts";
import { WARM_UP_JOB, type PdfJob } from "./pdf-jobs.ts";
import { createInlineRenderer, type ThreadLossReason } from "./pdf-renderer.ts";
import { RenderThreadLostError } from "./pool-thread.ts";
import { RenderPool, type RenderPoolOptions } from "./render-pool.ts";

// The render pool with real threads rendering real PDFs (started from vitest, so the thread
// registers tsx itself, as under `node --import tsx`).
const logger = createLogger({ service: "filing-test", level: "silent" });
const FAILING_WORKER = new URL("../test-support/failing-render-worker.ts", import.meta.url);
const BROKEN_WORKER = new URL("../test-support/broken-render-worker.ts", import.meta.url);

/** A CT600 PDF job; `generatedAt` names the failure day of failing-render-worker.ts when given. */
const job = (companyName = "ADA WORKS LIMITED", generatedAt = "2026-11-20T10:15:30Z"): PdfJob => ({
  type: "ct600_pdf",
  input: { ...(WARM_UP_JOB.input as Extract<PdfJob, { type: "ct600_pdf" }>["input"]), companyName, generatedAt },
});
const EXITS = "2099-01-01T00:00:00Z";
const THROWS = "2099-01-02T00:00:00Z";
const HANGS = "2099-01-03T00:00:00Z";

/** A test's pools and what their observers saw; the pools are closed when the test ends. */
function testPools(onTestFinished: (fn: () => Promise<void>) => void) {
  const pools: RenderPool[] = [];
  const lost: ThreadLossReason[] = [];
  const renderedOn: number[] = [];
  onTestFinished(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  });
  const observer = {
    threadLost: (reason: ThreadLossReason) => lost.push(reason),
    rendered: (_type: unknown, _s: unknown, _w: unknown, threadId: number) => renderedOn.push(threadId),
  };
  /** A pool not started yet. */
  const createPool = (options: Partial<RenderPoolOptions> = {}): RenderPool => {
    const pool = new RenderPool({ threads: 1, logger, observer, ...options });
    pools.push(pool);
    return pool;
  };
  /** A started pool whose threads are ready. */
  const startPool = async (options: Partial<RenderPoolOptions> = {}): Promise<RenderPool> => {
    const pool = createPool(options);
    pool.start();
    await pool.whenReady();
    return pool;
  };
  return { lost, renderedOn, createPool, startPool };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("it rendered"),
    (error: unknown) => error,
  );

/** How busy the event loop was while `work` ran (0: idle, 1: never idle). */
async function eventLoopUtilization(work: () => Promise<unknown>): Promise<number> {
  const before = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(before).utilization;
}

describe("rendering on a render thread", () => {
  it("renders on the pool's thread the same bytes as inline, with the event loop left nearly idle during a burst", async ({
    onTestFinished,
  }) => {
    const { startPool, renderedOn } = testPools(onTestFinished);
    const pool = await startPool();
    const [threadId] = pool.threadIds();
    expect(threadId).toBeDefined();
    expect(threadId).not.toBe(mainThreadId);

    const onThread = await pool.render(job());
    const inline = await createInlineRenderer().render(job());
    expect(onThread.equals(inline)).toBe(true);
    expect(renderedOn).toEqual([threadId]);
    const pdf = await readPdf(onThread);
    expect(pdf.pages).toHaveLength(2);
    expect(pdf.text).toContain("ADA WORKS LIMITED");

    // A burst as the documents consumer produces it: several filings' PDFs at once. On the thread
    // the event loop only posts inputs and takes bytes back; inline it does all of the rendering.
    const burst = Array.from({ length: 8 }, (_, i) => job(`BURST ${i} LIMITED`));
    const threaded = await eventLoopUtilization(() => Promise.all(burst.map((j) => pool.render(j))));
    const inlineRenderer = createInlineRenderer();
    const blocking = await eventLoopUtilization(() => Promise.all(burst.map((j) => inlineRenderer.render(j))));
    expect(renderedOn.filter((id) => id === threadId)).toHaveLength(9);
    expect(threaded).toBeLessThan(0.5);
    expect(blocking).toBeGreaterThan(0.8);
  });

  it("sends back an input error as itself (every problem), which is not a thread failure", async ({ onTestFinished }) => {
    const { startPool, lost } = testPools(onTestFinished);
    const pool = await startPool();
    const error = await failure(
      pool.render({
        type: "ct600_pdf",
        input: { ...job().input, utr: "12", irmark: "x" } as Extract<PdfJob, { type: "ct600_pdf" }>["input"],
      }),
    );
    expect(error).toBeInstanceOf(PdfInputError);
    expect((error as PdfInputError).problems).toEqual(["utr must be 10 digits", "irmark must be the base64 SHA-1 digest (28 characters)"]);
    expect(lost).toEqual([]);
    expect((await pool.render(job())).subarray(0, 5).toString()).toBe("%PDF-");
  });
});

// The tests below each have their own pools and observers, so they run concurrently: most of
// their time is thread start-ups (tsx and the PDF modules loaded in the thread) and the hang
// test's render timeout. (The first block stays in turn: it measures the event loop.)
describe.concurrent("a render thread that dies", () => {
  for (const [how, generatedAt] of [
    ["exits", EXITS],
    ["throws an uncaught error", THROWS],
  ] as const) {
    it(`${how} mid-render: that render fails retryably, the thread is replaced and the renders queued behind it succeed`, async ({
      onTestFinished,
    }) => {
      const { startPool, lost, renderedOn } = testPools(onTestFinished);
      const pool = await startPool({ workerModule: FAILING_WORKER });
      const [first] = pool.threadIds();
      const results = await Promise.allSettled([
        pool.render(job("DOOMED LIMITED", generatedAt)),
        pool.render(job("NEXT ONE LIMITED")),
        pool.render(job("AND ANOTHER LIMITED")),
      ]);
      const [doomed, next, another] = results;
      expect(doomed.status).toBe("rejected");
      const error = (doomed as PromiseRejectedResult).reason as unknown;
      expect(error).toBeInstanceOf(RenderThreadLostError);
      expect(isRetryable(error)).toBe(true);
      expect(lost).toEqual(["crash"]);
      for (const result of [next, another]) {
        expect(result.status).toBe("fulfilled");
        expect((await readPdf((result as PromiseFulfilledResult<Buffer>).value)).text).toMatch(/(NEXT ONE|AND ANOTHER) LIMITED/);
      }
      const [replacement] = pool.threadIds();
      expect(replacement).not.toBe(first);
      expect(renderedOn).toEqual([replacement, replacement]);
      expect(pool.pending()).toEqual({ queued: 0, inFlight: 0 });
    });
  }

  it("hangs: the render fails retryably after the render timeout, the thread is terminated and replaced", async ({ onTestFinished }) => {
    const { startPool, lost } = testPools(onTestFinished);
    const pool = await startPool({ workerModule: FAILING_WORKER, renderTimeoutMs: 1_500 });
    const [first] = pool.threadIds();
    const started = performance.now();
    const error = await failure(pool.render(job("STUCK LIMITED", HANGS)));
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(error).toBeInstanceOf(RenderThreadLostError);
    expect(isRetryable(error)).toBe(true);
    expect(lost).toEqual(["timeout"]);
    expect((await readPdf(await pool.render(job("AFTERWARDS LIMITED")))).text).toContain("AFTERWARDS LIMITED");
    expect(pool.threadIds()).not.toContain(first);
  });

  it("that cannot even start fails the waiting renders retryably instead of keeping them forever", async ({ onTestFinished }) => {
    const { createPool, lost } = testPools(onTestFinished);
    const pool = createPool({ workerModule: BROKEN_WORKER });
    pool.start();
    const error = await failure(pool.render(job()));
    expect(error).toBeInstanceOf(RenderThreadLostError);
    expect(isRetryable(error)).toBe(true);
    expect(lost[0]).toBe("start_failed");
    expect(pool.pending()).toEqual({ queued: 0, inFlight: 0 });
  });
});

describe.concurrent("queue and shutdown", () => {
  it("queues at most maxQueued renders and refuses more at once with a retryable 503", async ({ onTestFinished }) => {
    const { startPool } = testPools(onTestFinished);
    const pool = await startPool({ maxQueued: 2 });
    const accepted = [pool.render(job("ONE LIMITED")), pool.render(job("TWO LIMITED")), pool.render(job("THREE LIMITED"))];
    expect(pool.pending()).toEqual({ queued: 2, inFlight: 1 });
    const refused = await failure(pool.render(job("FOUR LIMITED")));
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true });
    expect((await Promise.all(accepted)).map((pdf) => pdf.subarray(0, 5).toString())).toEqual(["%PDF-", "%PDF-", "%PDF-"]);
  });

  it("close() lets the queued and running renders finish, then refuses new ones and stops its threads", async ({ onTestFinished }) => {
    const { startPool } = testPools(onTestFinished);
    const pool = await startPool();
    const order: string[] = [];
    const renders = ["A", "B", "C", "D"].map((name) =>
      pool.render(job(`${name} LIMITED`)).then((pdf) => {
        order.push(name);
        return pdf;
      }),
    );
    expect(pool.pending()).toEqual({ queued: 3, inFlight: 1 });
    const closed = pool.close().then(() => order.push("closed"));
    const refused = await failure(pool.render(job()));
    expect(refused).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true });
    await closed;
    expect(order).toEqual(["A", "B", "C", "D", "closed"]);
    for (const pdf of await Promise.all(renders)) expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pool.threadIds()).toEqual([]);
  });
});
