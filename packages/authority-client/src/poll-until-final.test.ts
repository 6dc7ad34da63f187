import { AppError } from "@dormant/contracts";
import { createLogger, type Logger } from "@dormant/service-kit";
import { createTestRedisPrefix, rejectionOf, type TestRedis } from "@dormant/testing";
import { Redis } from "ioredis";
import { Counter, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthorityBreaker } from "./authority-breaker.ts";
import { createBreakerMetrics } from "./breaker-metrics.ts";
import { CompletionLedger } from "./completion-ledger.ts";
import { AuthorityUnavailableError } from "./errors.ts";
import { breakerGraceMs } from "./poll-timing.ts";
import { PollUntilFinal, type FinalOutcome, type PollCommand } from "./poll-until-final.ts";

interface Command extends PollCommand {
  id: string;
}
type Outcome = FinalOutcome & { id: string };
type Answer = { decided: false } | { decided: true };

let testRedis: TestRedis;
let redis: Redis;
let completions: CompletionLedger;
const logger = createLogger({ service: "authority-client-test", level: "silent" });
let nextId = 0;
const REQUEST_TIMEOUT_MS = 5_000;
const BREAKER_RESET_TIMEOUT_MS = 1_500;

beforeAll(async () => {
  testRedis = createTestRedisPrefix("poll-until-final");
  redis = new Redis(testRedis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  await redis.connect();
  completions = new CompletionLedger({ redis, keyPrefix: `${testRedis.prefix}done:`, ttlSeconds: 60 });
});
afterAll(async () => {
  await testRedis.cleanup();
  redis.disconnect();
});

/** A poller whose authority answers `answer` (or throws it), recording what it scheduled and published. */
function world(answer: () => Promise<Answer>) {
  const scheduled: { command: Command; delayMs: number }[] = [];
  const published: Outcome[] = [];
  const asked: { timeoutMs: number }[] = [];
  const outcomes = new Counter({
    name: "outcomes_total",
    help: "test",
    labelNames: ["outcome", "code"] as const,
    registers: [new Registry()],
  });
  const finish = async (outcome: Outcome) => void (await polls.complete(outcome.id, outcome, async (o) => void published.push(o)));
  const polls: PollUntilFinal<Command> = new PollUntilFinal<Command>({
    completions,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    breakerResetTimeoutMs: BREAKER_RESET_TIMEOUT_MS,
    maxPollDelayMs: 60_000,
    outcomes,
    logger,
    subject: "submission",
    retry: { maxAttempts: 3, backoffMs: [100, 200] },
    unavailable: { code: "TAX_UNAVAILABLE", authority: "the authority", warning: "poll failed" },
    schedule: async (command, delayMs) => void scheduled.push({ command, delayMs }),
    giveUp: (command, why) => finish({ id: command.id, outcome: "error", error: { code: `GATEWAY_TIMEOUT: ${why}` } }),
  });
  const poll = (command: Command, attempt = 1) =>
    polls.poll(
      command,
      { queue: "test.poll", attempt, redelivered: false, signal: new AbortController().signal },
      {
        reference: command.id,
        bindings: { id: command.id },
        ask: (call) => {
          asked.push({ timeoutMs: call.timeoutMs });
          return answer();
        },
        decide: async (decision: Answer, _logger: Logger) => {
          if (decision.decided) return finish({ id: command.id, outcome: "accepted" });
          const next = await polls.pollAgain(command, 2);
          if (next.kind === "give_up") await finish({ id: command.id, outcome: "error", error: { code: "NO_DECISION" } });
        },
      },
    );
  return { poll, scheduled, published, asked, outcomes };
}

const command = (giveUpInMs: number): Command => ({
  id: `sub_${++nextId}`,
  give_up_at: new Date(Date.now() + giveUpInMs).toISOString(),
  poll_number: 1,
});

describe("PollUntilFinal", () => {
  it("publishes a final answer once, records it, and a redelivered poll asks nothing", async () => {
    const w = world(async () => ({ decided: true }));
    const c = command(60_000);
    await w.poll(c);
    await w.poll(c);
    expect(w.published).toEqual([{ id: c.id, outcome: "accepted" }]);
    expect(w.asked).toHaveLength(1);
    expect(await completions.completedOutcome(c.id)).toBe("accepted");
    expect((await w.outcomes.get()).values).toEqual([expect.objectContaining({ value: 1, labels: { outcome: "accepted", code: "" } })]);
  });

  it("no decision: the next poll, numbered one higher, after the interval; none past give_up_at", async () => {
    const w = world(async () => ({ decided: false }));
    const c = command(60_000);
    await w.poll(c);
    expect(w.scheduled).toEqual([{ command: { ...c, poll_number: 2 }, delayMs: 2_000 }]);
    const late = command(-1);
    await w.poll(late);
    expect(w.published).toEqual([{ id: late.id, outcome: "error", error: { code: "NO_DECISION" } }]);
  });

  it("cuts the call's timeout to end by give_up_at", async () => {
    const w = world(async () => ({ decided: true }));
    await w.poll(command(2_000));
    expect(w.asked[0]?.timeoutMs).toBeLessThanOrEqual(2_000);
  });

  it("an unavailable authority: retried by the bus while attempts remain, then rescheduled, then given up", async () => {
    const w = world(async () => {
      throw new AuthorityUnavailableError("timeout", "no answer", { maybeReceived: false });
    });
    const c = command(60_000);
    const retried = await rejectionOf(w.poll(c, 1));
    expect(retried).toBeInstanceOf(AppError);
    expect(retried).toMatchObject({ code: "TAX_UNAVAILABLE", retryable: true });
    await w.poll(c, 3);
    expect(w.scheduled).toEqual([{ command: { ...c, poll_number: 2 }, delayMs: 200 }]);
    const late = command(-1);
    await w.poll(late, 1);
    expect(w.published).toEqual([
      { id: late.id, outcome: "error", error: { code: "GATEWAY_TIMEOUT: the authority did not answer (timeout)" } },
    ]);
  });

  it("a breaker open at the give-up instant: the poll waits for it and asks the authority once more, as a slow authority is asked", async () => {
    const breaker = await openBreaker();
    try {
      // The authority took the submission and decided meanwhile; only the breaker stands between.
      const w = world(() => breaker.run(async () => ({ decided: true }) as Answer));
      const c = command(-1);
      await w.poll(c);
      // Not given up on the breaker's refusal: polled again once the breaker lets a trial through.
      expect(w.published).toEqual([]);
      expect(w.asked).toHaveLength(1);
      expect(w.scheduled).toHaveLength(1);
      const [again] = w.scheduled;
      expect(again?.command).toEqual({ ...c, poll_number: 2 });
      expect(again?.delayMs).toBeGreaterThan(0);
      // The breaker's retry-after, in whole seconds.
      expect(again?.delayMs).toBeLessThanOrEqual(Math.ceil(BREAKER_RESET_TIMEOUT_MS / 1000) * 1000);
      await new Promise((resolve) => setTimeout(resolve, (again?.delayMs ?? 0) + 100));
      await w.poll(again!.command);
      expect(w.published).toEqual([{ id: c.id, outcome: "accepted" }]);
      expect(breaker.state).toBe("closed");
    } finally {
      breaker.shutdown();
    }
  });

  it("a breaker open past the give-up instant and its grace (two breaker cycles): the poll is given up", async () => {
    const breaker = await openBreaker();
    try {
      const w = world(() => breaker.run(async () => ({ decided: true }) as Answer));
      const grace = breakerGraceMs({ resetTimeoutMs: BREAKER_RESET_TIMEOUT_MS, timeoutMs: REQUEST_TIMEOUT_MS });
      // Within the grace, the wait is held to its end.
      const nearEnd = command(-(grace - 200));
      await w.poll(nearEnd);
      expect(w.scheduled.map((s) => s.delayMs)).toEqual([expect.any(Number)]);
      expect(w.scheduled[0]?.delayMs).toBeLessThanOrEqual(200);
      const past = command(-(grace + 1));
      await w.poll(past);
      expect(w.published).toEqual([
        { id: past.id, outcome: "error", error: { code: "GATEWAY_TIMEOUT: the authority did not answer (breaker_open)" } },
      ]);
    } finally {
      breaker.shutdown();
    }
  });
});

/** A real breaker (opossum), opened by authority failures: it refuses every call for BREAKER_RESET_TIMEOUT_MS. */
async function openBreaker(): Promise<AuthorityBreaker> {
  const breaker = new AuthorityBreaker({
    name: "poll-until-final-test",
    settings: {
      timeoutMs: REQUEST_TIMEOUT_MS,
      errorThresholdPercentage: 50,
      volumeThreshold: 1,
      rollingWindowMs: 10_000,
      resetTimeoutMs: BREAKER_RESET_TIMEOUT_MS,
    },
    metrics: createBreakerMetrics(new Registry()),
    logger,
  });
  const failing = async (): Promise<never> => {
    throw new AuthorityUnavailableError("http_status", "503", { maybeReceived: false, status: 503 });
  };
  await breaker.run(failing).catch(() => undefined);
  expect(breaker.state).toBe("open");
  return breaker;
}
