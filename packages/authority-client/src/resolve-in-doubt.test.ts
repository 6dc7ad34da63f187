import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, type TestRedis, rejectionOf } from "@dormant/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AuthorityUnavailableError } from "./errors.ts";
import { resolveSubmission, type AuthorityLookup } from "./resolve-in-doubt.ts";
import { SubmissionLedger } from "./submission-ledger.ts";
import { SubmissionBlockedError, submitOnce, type SubmitOnceOptions } from "./submit-once.ts";

type Ack = { correlation_id: string };
type Attempt = { transaction_id: string };

let testRedis: TestRedis;
let redis: Redis;
let ledger: SubmissionLedger<Ack, Attempt>;
const logger = createLogger({ service: "authority-client-test", level: "silent" });
let nextId = 0;

beforeAll(async () => {
  testRedis = createTestRedisPrefix("in-doubt");
  redis = new Redis(testRedis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  await redis.connect();
  ledger = new SubmissionLedger({
    redis,
    keyPrefix: `${testRedis.prefix}submit:`,
    ttlSeconds: 60,
    response: z.object({ correlation_id: z.string() }),
    attempt: z.object({ transaction_id: z.string() }),
  });
});
afterAll(async () => {
  await testRedis.cleanup();
  redis.disconnect();
});

/**
 * An authority that keeps what it took in: `send` takes a submission in (and may lose the answer),
 * `lookup` answers by the attempt's transaction id, as the tax authority's DATA_REQUEST does.
 */
function authority() {
  const taken = new Map<string, string>();
  const calls = { sends: 0, lookups: 0, lookupsWithout: 0 };
  let down = false;
  return {
    calls,
    taken,
    setDown(value: boolean) {
      down = value;
    },
    send(transactionId: string, loseAnswer: boolean): Promise<Ack> {
      calls.sends += 1;
      const correlationId = `C${calls.sends}`;
      taken.set(transactionId, correlationId);
      if (loseAnswer) return Promise.reject(new AuthorityUnavailableError("timeout", "no answer in time", { maybeReceived: true }));
      return Promise.resolve({ correlation_id: correlationId });
    },
    lookup: (async (attempt) => {
      calls.lookups += 1;
      if (down) throw new AuthorityUnavailableError("http_status", "HTTP 503", { maybeReceived: false });
      if (!attempt) {
        calls.lookupsWithout += 1;
        return { found: false };
      }
      const correlationId = taken.get(attempt.transaction_id);
      return correlationId ? { found: true, response: { correlation_id: correlationId } } : { found: false };
    }) satisfies AuthorityLookup<Ack, Attempt>,
  };
}

function scenario(loseFirstAnswer: boolean) {
  const auth = authority();
  const id = `fil_${++nextId}:1`;
  const transactionId = `T${nextId}`;
  let lose = loseFirstAnswer;
  const followUps: Ack[] = [];
  const options: SubmitOnceOptions<Ack, Attempt> = {
    ledger,
    id,
    logger,
    waitMs: 1_000,
    abandonedAfterMs: 200,
    settleMs: 0,
    attempt: { transaction_id: transactionId },
    lookup: auth.lookup,
    submit: () => {
      const losing = lose;
      lose = false;
      return auth.send(transactionId, losing);
    },
    followUp: async (response) => {
      followUps.push(response);
    },
  };
  return { auth, id, options, followUps };
}

const resolveOptions = (s: ReturnType<typeof scenario>, settleMs = 0) => ({
  ledger,
  id: s.id,
  lookup: s.auth.lookup,
  abandonedAfterMs: 200,
  settleMs,
  followUp: s.options.followUp,
  logger,
});

describe("submitOnce with an authority to ask", () => {
  it("answers a repeat of an attempt whose answer was lost from the authority's own record, without sending it again", async () => {
    const s = scenario(true);
    expect(await rejectionOf(submitOnce(s.options))).toMatchObject({ reason: "timeout" });
    expect(await ledger.read(s.id)).toMatchObject({ state: "uncertain", attempt: { transaction_id: s.options.attempt?.transaction_id } });
    expect(await submitOnce(s.options)).toEqual({ response: { correlation_id: "C1" }, duplicate: true });
    expect(s.auth.calls.sends).toBe(1);
    expect(s.followUps).toEqual([{ correlation_id: "C1" }]);
    expect(await ledger.read(s.id)).toMatchObject({ state: "submitted", follow_up_done: true, response: { correlation_id: "C1" } });
  });

  it("submits an attempt in doubt that the authority says it never received", async () => {
    const s = scenario(false);
    // A worker claimed the submission and died before sending anything.
    expect(await ledger.claim(s.id, s.options.attempt)).toMatchObject({ claimed: true });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await submitOnce(s.options)).toEqual({ response: { correlation_id: "C1" }, duplicate: false });
    expect(s.auth.calls).toMatchObject({ sends: 1, lookups: 1 });
  });

  it("keeps an attempt in doubt while it is too early to believe the authority, or it cannot be asked", async () => {
    const s = scenario(true);
    await rejectionOf(submitOnce(s.options));
    const early = await rejectionOf(submitOnce({ ...s.options, settleMs: 60_000 }));
    expect(early).toBeInstanceOf(SubmissionBlockedError);
    expect(early).toMatchObject({ state: "uncertain" });
    expect(s.auth.calls.lookups).toBe(0);
    s.auth.setDown(true);
    expect(await rejectionOf(submitOnce(s.options))).toMatchObject({
      state: "uncertain",
      message: expect.stringMatching(/could not be asked/),
    });
    s.auth.setDown(false);
    expect((await submitOnce(s.options)).duplicate).toBe(true);
    expect(s.auth.calls.sends).toBe(1);
  });

  it("sends once when several requests meet the same attempt in doubt at once", async () => {
    const s = scenario(false);
    expect(await ledger.claim(s.id, s.options.attempt)).toMatchObject({ claimed: true });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => submitOnce(s.options)));
    const answered = results.filter(
      (r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof submitOnce<Ack, Attempt>>>> => r.status === "fulfilled",
    );
    expect(s.auth.calls.sends).toBe(1);
    for (const result of answered) expect(result.value.response).toEqual({ correlation_id: "C1" });
    expect(answered.length).toBeGreaterThan(0);
  });
});

describe("resolveSubmission (nothing is ever sent)", () => {
  it("acknowledges an attempt whose answer was lost, from the authority's own record, and schedules its follow-up once", async () => {
    const s = scenario(true);
    await rejectionOf(submitOnce(s.options));
    expect(await resolveSubmission(resolveOptions(s))).toEqual({ state: "acknowledged", response: { correlation_id: "C1" } });
    expect(await resolveSubmission(resolveOptions(s))).toEqual({ state: "acknowledged", response: { correlation_id: "C1" } });
    expect(s.followUps).toHaveLength(1);
    expect(s.auth.calls.sends).toBe(1);
  });

  it("answers not_submitted when no attempt was ever claimed", async () => {
    const s = scenario(false);
    expect(await resolveSubmission(resolveOptions(s))).toMatchObject({ state: "not_submitted" });
    expect(s.auth.calls.lookups).toBe(0);
  });

  it("answers not_submitted for an abandoned attempt the authority does not have, and releases it for a later explicit submit", async () => {
    const s = scenario(false);
    expect(await ledger.claim(s.id, s.options.attempt)).toMatchObject({ claimed: true });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await resolveSubmission(resolveOptions(s))).toMatchObject({ state: "not_submitted" });
    expect(await ledger.read(s.id)).toBeUndefined();
    expect(s.auth.calls.sends).toBe(0);
  });

  it("answers in_doubt while an attempt is running, before the settle time, and while the authority cannot be asked", async () => {
    const s = scenario(true);
    expect(await ledger.claim(s.id, s.options.attempt)).toMatchObject({ claimed: true });
    expect(await resolveSubmission(resolveOptions(s))).toMatchObject({ state: "in_doubt", reason: expect.stringMatching(/in progress/) });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await resolveSubmission(resolveOptions(s, 60_000))).toMatchObject({ state: "in_doubt", retryAfterSeconds: expect.any(Number) });
    s.auth.setDown(true);
    expect(await resolveSubmission(resolveOptions(s))).toMatchObject({
      state: "in_doubt",
      reason: expect.stringMatching(/could not be asked/),
    });
    expect(await ledger.read(s.id)).toMatchObject({ state: "in_progress" });
  });

  it("answers a submitted record as acknowledged and runs a follow-up that had failed", async () => {
    const s = scenario(false);
    let failFollowUp = true;
    const options = {
      ...s.options,
      followUp: async (response: Ack) => {
        if (failFollowUp) throw new Error("bus unavailable");
        s.followUps.push(response);
      },
    };
    await rejectionOf(submitOnce(options));
    failFollowUp = false;
    expect(await resolveSubmission({ ...resolveOptions(s), followUp: options.followUp })).toEqual({
      state: "acknowledged",
      response: { correlation_id: "C1" },
    });
    expect(s.followUps).toEqual([{ correlation_id: "C1" }]);
    expect(await ledger.read(s.id)).toMatchObject({ state: "submitted", follow_up_done: true });
  });
});
