import { FILING_RPC_QUEUE, sealSecret, submissionBinding, TAX_SUBMIT_QUEUE, type Ct600SubmitResponse } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { waitFor } from "@dormant/testing";
import { connect } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaxPartDraft } from "./submit/new-filing.ts";
import { busSubmissionResolver } from "./sweeper/resolve-submissions.ts";
import { sweepPendingFilings } from "./sweeper/sweep-pending.ts";
import { crashedAfterHold } from "./test-support/crashed-submit.ts";
import { startFilingHarness, type FilingHarness } from "./testing/filing-harness.ts";

// The basic crash tests: the state a kill -9 leaves at each point of a submit is written with the
// service's own functions (what the process had done before it died), then the system is left to
// recover the way it would after a restart.
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("crash", { billing: true, taxSubmitter: true });
});
afterAll(async () => {
  await h?.teardown();
});

const taxSubmits = (company: string) => h.sim.context.received.list({ target: "tax", company, kind: "submit" }).length;
const credentials = { government_gateway_id: "GGUSER01", government_gateway_password: "correct horse battery" };

describe("crash safety", () => {
  it("a retry resumes a filing the crash left pending after the submit RPC went out, and the part is submitted once", async () => {
    const caller = h.caller({ account_id: await h.openAccount(10_000) });
    const filing = { company_number: "41000001", utr: "1234567890", period_end: "2026-03-31", period: { start: "2025-04-01" } };
    const plan = await crashedAfterHold(h, caller, filing, "resume-me");
    // The dead process had sent tax.submit_part: the authority has the return.
    const sent = await h.peer.rpcCall(TAX_SUBMIT_QUEUE, "tax.submit_part", {
      ...(plan.parts[0]!.request as TaxPartDraft),
      credentials: sealSecret(credentials, h.config.sealingKeys[0]!, submissionBinding(plan.id, 1)),
    });
    expect(taxSubmits("41000001")).toBe(1);

    const answer = (await h.submitCt600(caller, filing, { idempotencyKey: "resume-me" })) as Ct600SubmitResponse;
    expect(answer).toMatchObject({ filing_id: plan.id, status: "submitted", tax_correlation_id: sent.correlation_id });
    expect(taxSubmits("41000001")).toBe(1);
    expect((await h.waitForEvent(plan.id)).type).toBe("filing.accepted");
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 8000, { what: "one fee captured" });
  });

  it("the sweeper ends a filing whose client never retried, the hold is released, and the same key then submits afresh", async () => {
    const caller = h.caller({ account_id: await h.openAccount(10_000) });
    const filing = { company_number: "42000001", utr: "1234567890", period_end: "2026-03-31", period: { start: "2025-04-01" } };
    const plan = await crashedAfterHold(h, caller, filing, "never-retried");
    expect(await h.availablePence(caller.account_id)).toBe(8000);
    await new Promise((resolve) => setTimeout(resolve, 20));

    const swept = await sweepPendingFilings(
      {
        db: h.service.db,
        resolver: busSubmissionResolver(h.service.bus),
        logger: createLogger({ service: "filing-test", level: "silent" }),
      },
      { olderThanSeconds: 0, batchSize: 100, partlySentGiveUpSeconds: 3600 },
    );
    expect(swept.unsent).toContain(plan.id);
    h.service.relay.wake();
    expect(await h.waitForEvent(plan.id)).toMatchObject({ type: "filing.errored", payload: { error: { code: "INTERNAL_ERROR" } } });
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 10_000, { what: "the hold released" });
    expect(await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get", { caller, filing_id: plan.id })).toMatchObject({
      status: "error",
      error: { code: "INTERNAL_ERROR" },
    });

    const answer = (await h.submitCt600(caller, filing, { idempotencyKey: "never-retried" })) as Ct600SubmitResponse;
    expect(answer.filing_id).not.toBe(plan.id);
    expect(answer.status).toBe("submitted");
  });

  it("outcomes that arrive while the service is down wait in their queue and are applied after the restart", async () => {
    const caller = h.caller({ account_id: await h.openAccount(10_000) });
    await fetch(`${h.sim.urls.control}/timing`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcomeDelayMs: 1500 }),
    });
    try {
      const answer = (await h.submitCt600(caller, {
        company_number: "43000001",
        utr: "1234567890",
        period_end: "2026-03-31",
        period: { start: "2025-04-01" },
      })) as Ct600SubmitResponse;
      await h.service.stop();
      const amqp = await connect(h.vhost.url);
      try {
        const channel = await amqp.createChannel();
        await waitFor(async () => (await channel.checkQueue("filing.outcomes")).messageCount > 0, {
          timeoutMs: 10_000,
          what: "an outcome waiting in filing.outcomes",
        });
      } finally {
        await amqp.close();
      }
      expect(h.eventsFor(answer.filing_id)).toEqual([]);
      await h.restartService();
      expect((await h.waitForEvent(answer.filing_id)).type).toBe("filing.accepted");
      expect(await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get", { caller, filing_id: answer.filing_id })).toMatchObject({
        status: "accepted",
        tax_status: "accepted",
      });
    } finally {
      await fetch(`${h.sim.urls.control}/timing`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ outcomeDelayMs: 100 }),
      });
    }
  });
});
