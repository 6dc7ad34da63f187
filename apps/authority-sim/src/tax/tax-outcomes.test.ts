import {
  buildCt600DeleteMessage,
  buildCt600PollMessage,
  parseCt600Response,
  receiptConfirmsIRmark,
  type Ct600Response,
} from "@dormant/govtalk";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetSimContext } from "../context.ts";
import type { SimServer } from "../server.ts";
import { alteredAndResigned, nilReturn } from "../test-support/tax-messages.ts";
import { postXml, startTestSim } from "../testing/test-sim.ts";

let sim: SimServer;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(() => sim.close());
beforeEach(() => resetSimContext(sim.context));

async function send(url: string, xml: string): Promise<Ct600Response> {
  const answer = await postXml(url, xml);
  expect(answer.status).toBe(200);
  return parseCt600Response(answer.text);
}

async function submitFor(companyNumber: string, xml = nilReturn({ companyNumber }).xml): Promise<string> {
  const ack = await send(sim.urls.taxSubmission, xml);
  if (ack.type !== "acknowledgement") throw new Error(`not acknowledged: ${JSON.stringify(ack)}`);
  return ack.correlationId;
}

const poll = (correlationId: string) => send(sim.urls.taxPoll, buildCt600PollMessage({ correlationId, gatewayTest: true }));
const remove = (correlationId: string) => send(sim.urls.taxSubmission, buildCt600DeleteMessage({ correlationId, gatewayTest: true }));

/** Polls until the answer is no longer an acknowledgement. */
function finalAnswer(correlationId: string): Promise<Ct600Response> {
  return waitFor(
    async () => {
      const answer = await poll(correlationId);
      return answer.type === "acknowledgement" ? undefined : answer;
    },
    { timeoutMs: 5000, intervalMs: 25, what: "the final answer" },
  );
}

describe("tax transaction engine: poll and delete", () => {
  it("00000001: pending, then success with an IRmark receipt; delete clears it; afterwards 2000", async () => {
    sim.context.timing.update({ outcomeDelayMs: 1000 });
    const message = nilReturn({ companyNumber: "00000001" });
    const correlationId = await submitFor("00000001", message.xml);

    const pending = await poll(correlationId);
    expect(pending).toMatchObject({ type: "acknowledgement", correlationId, pollIntervalSeconds: 1, responseEndPoint: sim.urls.taxPoll });

    const success = await finalAnswer(correlationId);
    if (success.type !== "success") throw new Error(`expected success, got ${JSON.stringify(success)}`);
    expect(success.correlationId).toBe(correlationId);
    expect(success.receipt.digestBase64).toBe(message.irmark.base64);
    expect(success.receipt.irmarkBase32).toBe(message.irmark.base32);
    expect(receiptConfirmsIRmark(success.receipt, message.irmark)).toBe(true);
    expect(success.acceptedTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(success.messages.map((m) => m.code)).toEqual(["0000", "077001"]);

    expect((await poll(correlationId)).type).toBe("success");
    expect(await remove(correlationId)).toEqual({ type: "deleted", correlationId });

    for (const answer of [await poll(correlationId), await remove(correlationId)]) {
      if (answer.type !== "error") throw new Error("expected error 2000");
      expect(answer.errors[0]?.number).toBe(2000);
      expect(answer.classification.retryable).toBe(false);
    }
  });

  it("00000005: the outcome is ready at the first poll", async () => {
    sim.context.timing.update({ outcomeDelayMs: 60_000 });
    const correlationId = await submitFor("00000005");
    expect((await poll(correlationId)).type).toBe("success");
  });

  it("an unknown CorrelationID: 2000", async () => {
    const answer = await poll("0123456789ABCDEF0123456789ABCDEF");
    expect(answer.type).toBe("error");
    if (answer.type === "error") expect(answer.errors[0]?.number).toBe(2000);
  });

  it.each([
    ["00000002", 3001, 9601],
    ["SC000002", 3001, 9602],
    ["NI000002", 3001, 9603],
    ["99999999", 3001, 9604],
  ])("%s: business rejection %i with rule %i in the ErrorResponse body", async (company, number, rule) => {
    const answer = await finalAnswer(await submitFor(company));
    if (answer.type !== "error") throw new Error(`expected an error, got ${answer.type}`);
    expect(answer.errors[0]).toMatchObject({ number, type: "business", raisedBy: "ChRIS" });
    expect(answer.details.map((detail) => detail.number)).toEqual([rule]);
    expect(answer.classification).toMatchObject({ kind: "business", retryable: false });
  });

  it("00000003: period already filed, 3304", async () => {
    const answer = await finalAnswer(await submitFor("00000003"));
    if (answer.type !== "error") throw new Error("expected an error");
    expect(answer.errors[0]?.number).toBe(3304);
    expect(answer.classification.kind).toBe("business");
  });

  it.each(["SC000001", "NI000001", "00000006", "12345678", "AB123456"])("%s is accepted", async (company) => {
    expect((await finalAnswer(await submitFor(company))).type).toBe("success");
  });

  it("checks the real business rules on every company: 9100 (UTR keys = Reference) and 9101 (at most 12 months)", async () => {
    const utrMismatch = alteredAndResigned(nilReturn().xml, "<Reference>8596148860</Reference>", "<Reference>1234567890</Reference>");
    const longPeriod = alteredAndResigned(nilReturn().xml, "<To>2026-03-31</To>", "<To>2026-04-30</To>");
    const first = await finalAnswer(await submitFor("00000001", utrMismatch));
    const second = await finalAnswer(await submitFor("00000001", longPeriod));
    if (first.type !== "error" || second.type !== "error") throw new Error("expected errors");
    expect(first.details.map((d) => d.number)).toEqual([9100]);
    expect(second.details.map((d) => d.number)).toEqual([9101]);
  });

  it("9101 counts 12 months from 29 February as the platform's period split does: to 28 February accepted, to 1 March rejected", async () => {
    const twelveMonths = nilReturn({ companyNumber: "00000001", periodStart: "2024-02-29", periodEnd: "2025-02-28" }).xml;
    const oneDayMore = alteredAndResigned(twelveMonths, "<To>2025-02-28</To>", "<To>2025-03-01</To>");
    expect((await finalAnswer(await submitFor("00000001", twelveMonths))).type).toBe("success");
    const rejected = await finalAnswer(await submitFor("00000001", oneDayMore));
    if (rejected.type !== "error") throw new Error(`expected an error, got ${rejected.type}`);
    expect(rejected.details.map((d) => d.number)).toEqual([9101]);
  });

  it("00000004: acknowledged, then polls are never answered (the client gives up)", async () => {
    const correlationId = await submitFor("00000004");
    // The client gives up only once the simulator holds its poll unanswered (on a busy machine a
    // fixed client timeout could end before the poll even arrived).
    const client = new AbortController();
    const request = postXml(sim.urls.taxPoll, buildCt600PollMessage({ correlationId, gatewayTest: true }), { signal: client.signal });
    await waitFor(() => sim.context.hanging.count === 1, { what: "the poll to be held unanswered" });
    client.abort();
    await expect(request).rejects.toThrow(/abort/i);
    await waitFor(() => sim.context.hanging.count === 0, { what: "the hung request to be released" });
    const log = sim.context.received.list({ target: "tax", company: "00000004" });
    expect(log.map((entry) => `${entry.kind}:${entry.answer}`)).toEqual(["submit:acknowledgement", "poll:no-answer"]);
  });

  it("00000004: a hung request is dropped after the hang time, without an answer", async () => {
    sim.context.hanging.hangMs = 200;
    const correlationId = await submitFor("00000004");
    const started = Date.now();
    await expect(postXml(sim.urls.taxPoll, buildCt600PollMessage({ correlationId, gatewayTest: true }))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(sim.context.hanging.count).toBe(0);
  });

  it("records every exchange, so a test can prove a return was submitted once", async () => {
    const message = nilReturn({ companyNumber: "00000001" });
    const correlationId = await submitFor("00000001", message.xml);
    await finalAnswer(correlationId);
    await remove(correlationId);
    const response = await fetch(`${sim.urls.control}/received?target=tax&company=00000001&kind=submit`);
    const body = (await response.json()) as { count: number; items: Record<string, unknown>[] };
    expect(body.count).toBe(1);
    expect(body.items[0]).toMatchObject({
      target: "tax",
      kind: "submit",
      company: "00000001",
      correlationId,
      irmark: message.irmark.base64,
      answer: "acknowledgement",
    });
    const kinds = sim.context.received.list({ target: "tax", company: "00000001" }).map((entry) => entry.kind);
    expect(kinds[0]).toBe("submit");
    expect(kinds.at(-1)).toBe("delete");
  });
});
