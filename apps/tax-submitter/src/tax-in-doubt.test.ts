import { AppError } from "@dormant/contracts";
import { rejectionOf } from "@dormant/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { taxHarness, type TaxHarness } from "./test-support/tax-harness.ts";
import { transactionIdFor } from "./submit-attempt.ts";

// A part whose acknowledgement is lost (the simulator takes the submission in, then holds the
// connection or closes it without answering) is settled by asking the Transaction Engine for the
// part's TransactionID (DATA_REQUEST), never by sending it again blindly.
let t: TaxHarness;
beforeAll(async () => {
  t = await taxHarness("tax-in-doubt");
});
afterAll(() => t.teardown());
afterEach(async () => {
  await t.control("DELETE", "/faults");
});

const submitCall = (request: ReturnType<TaxHarness["request"]>) => t.filingBus.rpcCall("tax.submit", "tax.submit_part", request);
const resolveCall = (request: ReturnType<TaxHarness["request"]>) =>
  t.filingBus.rpcCall("tax.submit", "tax.resolve_part", { filing_id: request.filing_id, part_number: request.part_number });
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describe("tax submitter: parts in doubt", () => {
  it("sends the part's TransactionID, derived from the filing and part", async () => {
    const worker = await t.startWorker();
    const request = t.request({ companyNumber: "70000001" });
    await submitCall(request);
    const { items } = (await t.control("GET", `/received?target=tax&company=70000001&kind=submit&body=true`)) as {
      items: Array<{ body?: string }>;
    };
    const [entry] = items;
    expect(items).toHaveLength(1);
    expect(entry?.body).toContain(`<TransactionID>${transactionIdFor(request.filing_id, 1)}</TransactionID>`);
    expect(transactionIdFor(request.filing_id, 1)).not.toBe(transactionIdFor(request.filing_id, 2));
    await worker.close();
  });

  for (const mode of ["hold", "close"] as const) {
    it(`a repeat of a part whose answer was lost (${mode}) is answered from the engine's list, not sent again, and the part is accepted`, async () => {
      const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1500" });
      await t.control("POST", "/faults", { target: "tax", loseAnswer: mode, loseAnswerCount: 1 });
      const request = t.request({ companyNumber: mode === "hold" ? "70000002" : "70000003" });
      const lost = await rejectionOf(submitCall(request), AppError);
      // In doubt: not retryable, so the filing service keeps the filing (nothing is removed).
      expect(lost).toMatchObject({ code: "TAX_UNAVAILABLE", retryable: false });
      await settle();
      const answer = await submitCall(request);
      expect(answer.correlation_id).toMatch(/^[0-9A-F]{32}$/);
      expect(await t.outcome(request.filing_id)).toMatchObject({ outcome: "accepted", correlation_id: answer.correlation_id });
      const submits = await t.received({ company: request.company.number, kind: "submit" });
      expect(submits).toHaveLength(1);
      await worker.close();
    });
  }

  it("tax.resolve_part finds a lost part, schedules its polls, and never sends anything", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1500" });
    await t.control("POST", "/faults", { target: "tax", loseAnswer: "hold", loseAnswerCount: 1 });
    const request = t.request({ companyNumber: "70000004" });
    await rejectionOf(submitCall(request), AppError);
    expect(await resolveCall(request)).toMatchObject({ state: "in_doubt" });
    await settle();
    const resolved = await resolveCall(request);
    expect(resolved).toMatchObject({ state: "acknowledged", response: { correlation_id: expect.stringMatching(/^[0-9A-F]{32}$/) } });
    expect(await t.outcome(request.filing_id)).toMatchObject({ outcome: "accepted" });
    expect(await resolveCall(request)).toEqual(resolved);
    expect(await t.received({ company: "70000004", kind: "submit" })).toHaveLength(1);
    await worker.close();
  });

  it("tax.resolve_part answers not_submitted for a part never claimed, and for one the engine does not list once settled", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1000" });
    const never = t.request({ companyNumber: "70000005" });
    expect(await resolveCall(never)).toMatchObject({ state: "not_submitted" });
    // hang acts before the engine takes anything in: the part never reached it.
    await t.control("POST", "/faults", { target: "tax", hang: true });
    const hung = t.request({ companyNumber: "70000006" });
    await rejectionOf(submitCall(hung), AppError);
    await t.control("DELETE", "/faults");
    await settle();
    expect(await resolveCall(hung)).toMatchObject({ state: "not_submitted" });
    const submitted = await t.received({ company: "70000006", kind: "submit" });
    expect(submitted.filter((entry) => entry.answer === "acknowledgement")).toHaveLength(0);
    await worker.close();
  });

  it("keeps a part in doubt while the engine cannot be asked", async () => {
    const worker = await t.startWorker({ AUTHORITY_TIMEOUT_MS: "1500" });
    await t.control("POST", "/faults", { target: "tax", loseAnswer: "close", loseAnswerCount: 1 });
    const request = t.request({ companyNumber: "70000007" });
    await rejectionOf(submitCall(request), AppError);
    await t.control("POST", "/faults", { target: "tax", down: true });
    await settle();
    expect(await resolveCall(request)).toMatchObject({ state: "in_doubt", reason: expect.stringMatching(/could not be asked/) });
    expect(await rejectionOf(submitCall(request), AppError)).toMatchObject({ code: "TAX_UNAVAILABLE", retryable: false });
    await t.control("DELETE", "/faults");
    expect(await resolveCall(request)).toMatchObject({ state: "acknowledged" });
    expect(await t.received({ company: "70000007", kind: "submit" })).toHaveLength(1);
    await worker.close();
  });
});
