import { AppError } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, type TestRedis, rejectionOf } from "@dormant/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CompletionLedger } from "./completion-ledger.ts";
import { AuthorityCallAbortedError, AuthorityUnavailableError } from "./errors.ts";
import { SubmissionLedger } from "./submission-ledger.ts";
import { SubmissionBlockedError, submitOnce, type SubmitOnceOptions } from "./submit-once.ts";

let testRedis: TestRedis;
let redis: Redis;
let ledger: SubmissionLedger<{ correlation_id: string }>;
const logger = createLogger({ service: "authority-client-test", level: "silent" });
let nextId = 0;

beforeAll(async () => {
  testRedis = createTestRedisPrefix("submit-once");
  redis = new Redis(testRedis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  await redis.connect();
  ledger = new SubmissionLedger({
    redis,
    keyPrefix: `${testRedis.prefix}submit:`,
    ttlSeconds: 60,
    response: z.object({ correlation_id: z.string() }),
  });
});
afterAll(async () => {
  await testRedis.cleanup();
  redis.disconnect();
});

/** A submission id of its own, counted calls of submit and followUp, and options to pass. */
function scenario(
  submit: () => Promise<{ correlation_id: string }>,
  followUp: (r: { correlation_id: string }) => Promise<void> = async () => undefined,
) {
  const counts = { submits: 0, followUps: 0 };
  const id = `fil_${++nextId}:1`;
  const options: SubmitOnceOptions<{ correlation_id: string }> = {
    ledger,
    id,
    logger,
    waitMs: 2_000,
    abandonedAfterMs: 60_000,
    submit: async () => {
      counts.submits += 1;
      return submit();
    },
    followUp: async (response) => {
      counts.followUps += 1;
      return followUp(response);
    },
  };
  return { counts, options, id };
}

describe("submitOnce", () => {
  it("submits once; a later request gets the recorded response", async () => {
    const { counts, options } = scenario(async () => ({ correlation_id: "ABC" }));
    expect(await submitOnce(options)).toEqual({ response: { correlation_id: "ABC" }, duplicate: false });
    expect(await submitOnce(options)).toEqual({ response: { correlation_id: "ABC" }, duplicate: true });
    expect(counts).toEqual({ submits: 1, followUps: 1 });
  });

  it("makes a concurrent duplicate wait for the attempt in progress and answer with its result", async () => {
    const { counts, options } = scenario(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { correlation_id: "SLOW" };
    });
    const [first, second] = await Promise.all([submitOnce(options), submitOnce(options)]);
    expect([first.response, second.response]).toEqual([{ correlation_id: "SLOW" }, { correlation_id: "SLOW" }]);
    expect([first.duplicate, second.duplicate].sort()).toEqual([false, true]);
    expect(counts.submits).toBe(1);
  });

  it("gives up waiting for an attempt in progress after waitMs", async () => {
    const { options } = scenario(() => new Promise((resolve) => setTimeout(() => resolve({ correlation_id: "X" }), 1_000)));
    const first = submitOnce(options);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const error = await rejectionOf(submitOnce({ ...options, waitMs: 200 }));
    expect(error).toBeInstanceOf(SubmissionBlockedError);
    expect(error).toMatchObject({ state: "in_progress" });
    await first;
  });

  it("releases a refused attempt so it can be tried again", async () => {
    let refuse = true;
    const { counts, options } = scenario(async () => {
      if (refuse) throw new AppError("TAX_AUTH_FAILED", "credentials refused");
      return { correlation_id: "LATER" };
    });
    expect(await rejectionOf(submitOnce(options))).toMatchObject({ code: "TAX_AUTH_FAILED" });
    refuse = false;
    expect((await submitOnce(options)).response).toEqual({ correlation_id: "LATER" });
    expect(counts.submits).toBe(2);
  });

  it("releases an attempt the authority never received (breaker open, HTTP 503)", async () => {
    const { counts, options, id } = scenario(async () => {
      throw new AuthorityUnavailableError("breaker_open", "open", { maybeReceived: false });
    });
    await rejectionOf(submitOnce(options));
    expect(await ledger.read(id)).toBeUndefined();
    await rejectionOf(submitOnce(options));
    expect(counts.submits).toBe(2);
  });

  it("never repeats an attempt that may have reached the authority (timeout after sending)", async () => {
    const { counts, options, id } = scenario(async () => {
      throw new AuthorityUnavailableError("timeout", "no answer", { maybeReceived: true });
    });
    expect(await rejectionOf(submitOnce(options))).toMatchObject({ reason: "timeout" });
    const blocked = await rejectionOf(submitOnce(options));
    expect(blocked).toBeInstanceOf(SubmissionBlockedError);
    expect(blocked).toMatchObject({ state: "uncertain" });
    expect(counts.submits).toBe(1);
    expect(await ledger.read(id)).toMatchObject({ state: "uncertain", reason: "no answer" });
  });

  it("never repeats an attempt its caller gave up on while it was in flight", async () => {
    const { counts, options } = scenario(async () => {
      throw new AuthorityCallAbortedError("tax-submission", new Error("rpc deadline"));
    });
    await rejectionOf(submitOnce(options));
    expect(await rejectionOf(submitOnce(options))).toMatchObject({ state: "uncertain" });
    expect(counts.submits).toBe(1);
  });

  it("never repeats an attempt whose worker died in the middle of it (kill -9): it is in doubt", async () => {
    const { counts, options, id } = scenario(async () => ({ correlation_id: "TWICE" }));
    // A worker claimed the submission, maybe sent it, and died before recording anything.
    expect(await ledger.claim(id)).toMatchObject({ claimed: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const blocked = await rejectionOf(submitOnce({ ...options, abandonedAfterMs: 200 }));
    expect(blocked).toBeInstanceOf(SubmissionBlockedError);
    expect(blocked).toMatchObject({ state: "uncertain" });
    expect(await ledger.read(id)).toMatchObject({ state: "uncertain", reason: expect.stringMatching(/stopped/) });
    expect(counts.submits).toBe(0);
  });

  it("takes over an attempt whose worker died in the middle of it when repeating is safe at the authority", async () => {
    const { counts, options, id } = scenario(async () => ({ correlation_id: "AGAIN" }));
    expect(await ledger.claim(id)).toMatchObject({ claimed: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const safe = { ...options, abandonedAfterMs: 200, mayHaveReached: () => false };
    expect(await submitOnce(safe)).toEqual({ response: { correlation_id: "AGAIN" }, duplicate: false });
    expect(await submitOnce(safe)).toEqual({ response: { correlation_id: "AGAIN" }, duplicate: true });
    expect(counts).toEqual({ submits: 1, followUps: 1 });
  });

  it("runs the follow-up again for a duplicate when it failed the first time, without submitting again", async () => {
    let failFollowUp = true;
    const { counts, options, id } = scenario(
      async () => ({ correlation_id: "ACK" }),
      async () => {
        if (failFollowUp) throw new Error("bus unavailable");
      },
    );
    expect(await rejectionOf(submitOnce(options))).toMatchObject({ message: "bus unavailable" });
    expect(await ledger.read(id)).toMatchObject({ state: "submitted", follow_up_done: false });
    failFollowUp = false;
    expect(await submitOnce(options)).toEqual({ response: { correlation_id: "ACK" }, duplicate: true });
    expect(await ledger.read(id)).toMatchObject({ state: "submitted", follow_up_done: true });
    expect(await submitOnce(options)).toEqual({ response: { correlation_id: "ACK" }, duplicate: true });
    expect(counts).toEqual({ submits: 1, followUps: 2 });
  });

  it("keeps records under its key prefix with the configured time to live", async () => {
    const { options, id } = scenario(async () => ({ correlation_id: "TTL" }));
    await submitOnce(options);
    const ttl = await redis.ttl(`${testRedis.prefix}submit:${id}`);
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
  });
});

describe("CompletionLedger", () => {
  it("remembers completed submissions", async () => {
    const completions = new CompletionLedger({ redis, keyPrefix: `${testRedis.prefix}done:`, ttlSeconds: 60 });
    expect(await completions.completedOutcome("ABC")).toBeUndefined();
    await completions.markCompleted("ABC", "accepted");
    expect(await completions.completedOutcome("ABC")).toBe("accepted");
  });
});
