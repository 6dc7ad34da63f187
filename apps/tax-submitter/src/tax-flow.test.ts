import { readFileSync } from "node:fs";
import { ACCEPTED_DORMANT_ACCOUNTS_FILE } from "@dormant/documents/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import { checkCt600BusinessRules } from "@dormant/govtalk";
import { waitFor } from "@dormant/testing";
import { newFilingId, taxHarness, type TaxHarness } from "./test-support/tax-harness.ts";

/**
 * Dormant accounts the registry accepted (LAUDERDALE TWO LIMITED, period 2025-01-15 to
 * 2026-03-31; provenance in packages/documents/testdata/accepted-accounts/SOURCES.md).
 */
const ACCEPTED_DORMANT_ACCOUNTS = readFileSync(ACCEPTED_DORMANT_ACCOUNTS_FILE);

let t: TaxHarness;
beforeAll(async () => {
  t = await taxHarness("tax-flow");
  // Hung requests are held longer than the worker waits, so the worker's own timeout ends them.
  await t.control("PUT", "/timing", { hangMs: 10_000 });
  await t.startWorker();
});
afterAll(() => t.teardown());

describe.concurrent("tax submitter: submit, poll, outcome", () => {
  it("00000001: acknowledged, polled, accepted with the receipt's IRmark, then deleted at the authority", async ({ expect }) => {
    const filingId = newFilingId();
    const response = await t.submit({ filingId, companyNumber: "00000001" });
    expect(response.correlation_id).toMatch(/^[0-9A-F]{32}$/);
    expect(response.irmark_base64).toHaveLength(28);
    expect(response.irmark_base32).toHaveLength(32);
    expect(response.poll_interval_seconds).toBe(1);
    expect(response.submitted_xml).toContain("<Value>********</Value>");
    expect(response.submitted_xml).not.toContain("correct horse battery");
    expect(response.submitted_xml).toContain(`<IRmark Type="generic">${response.irmark_base64}</IRmark>`);

    const outcome = await t.outcome(filingId);
    expect(outcome).toMatchObject({
      outcome: "accepted",
      part_number: 1,
      correlation_id: response.correlation_id,
      receipt_irmark_base32: response.irmark_base32,
    });
    if (outcome.outcome !== "accepted") throw new Error("not accepted");
    expect(outcome.receipt_message).toContain(response.irmark_base32);
    // The record of the submit travels with the outcome (issue 25: the RPC's answer may be lost).
    expect(outcome.submission).toEqual({
      irmark_base64: response.irmark_base64,
      submitted_at: response.submitted_at,
      submitted_xml: response.submitted_xml,
    });
    expect(Date.parse(outcome.accepted_time)).toBeGreaterThan(Date.parse(response.submitted_at) - 1000);

    await waitFor(async () =>
      (await t.received({ company: "00000001", kind: "delete" })).some((e) => e.correlationId === response.correlation_id),
    );
    const exchanges = (await t.received({ company: "00000001" })).filter((e) => e.correlationId === response.correlation_id);
    expect(exchanges.map((e) => `${e.kind}:${e.answer}`)).toEqual(["submit:acknowledgement", "poll:response", "delete:deleted"]);
  });

  it.for([
    ["00000002", "rejected", "TAX_UTR_MISMATCH", 9601],
    ["00000003", "rejected", "PERIOD_ALREADY_FILED", 3304],
    ["SC000002", "rejected", "COMPANY_DISSOLVED", 9602],
    ["NI000002", "rejected", "AUTH_CODE_INVALID", 9603],
    ["99999999", "rejected", "TAX_REJECTED", 9604],
  ] as const)("%s: %s with %s (authority error %i), and deleted at the authority", async ([company, outcome, code, number], { expect }) => {
    const filingId = newFilingId();
    const { correlation_id } = await t.submit({ filingId, companyNumber: company });
    const reported = await t.outcome(filingId);
    expect(reported).toMatchObject({ outcome, correlation_id, error: { code } });
    if (reported.outcome === "accepted") throw new Error("accepted");
    expect(reported.authority_errors.map((e) => e.number)).toContain(number);
    expect(reported.error.message.length).toBeGreaterThan(10);
    await waitFor(async () => (await t.received({ company, kind: "delete" })).some((e) => e.correlationId === correlation_id));
  });

  it.for(["SC000001", "NI000001", "00000006", "12345678"])("%s: accepted", async (company, { expect }) => {
    const filingId = newFilingId();
    await t.submit({ filingId, companyNumber: company });
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted" });
  });

  it("00000005: accepted at the first poll, without a polling notice", async ({ expect }) => {
    const filingId = newFilingId();
    await t.submit({ filingId, companyNumber: "00000005" });
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted" });
    expect(t.reported.polling.filter((p) => p.filing_id === filingId)).toEqual([]);
  });

  it("00000004: the authority stops answering; the part ends in error GATEWAY_TIMEOUT at the give-up time", async ({ expect }) => {
    const filingId = newFilingId();
    const { correlation_id, submitted_at } = await t.submit({ filingId, companyNumber: "00000004" });
    const outcome = await t.outcome(filingId, 1, 18_000);
    const elapsed = Date.now() - Date.parse(submitted_at);
    expect(outcome).toMatchObject({ outcome: "error", correlation_id, error: { code: "GATEWAY_TIMEOUT" } });
    // POLL_GIVE_UP_AFTER_SECONDS is 10 here: not before it, and promptly after it (the last poll's
    // timeout is cut to end by the give-up time).
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect(elapsed).toBeLessThan(13_500);
    const polls = await t.received({ company: "00000004", kind: "poll" });
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(polls.every((p) => p.answer === "no-answer")).toBe(true);
  });

  it("submits the two parts of a split period separately, each with its own outcome", async ({ expect }) => {
    const filingId = newFilingId();
    const first = await t.submit({
      filingId,
      companyNumber: "00000001",
      partNumber: 1,
      partsTotal: 2,
      period: { start: "2024-01-01", end: "2024-12-31" },
    });
    const second = await t.submit({
      filingId,
      companyNumber: "00000001",
      partNumber: 2,
      partsTotal: 2,
      period: { start: "2025-01-01", end: "2025-03-31" },
    });
    expect(first.correlation_id).not.toBe(second.correlation_id);
    expect(first.submitted_xml).toContain("<To>2024-12-31</To>");
    expect(second.submitted_xml).toContain("<To>2025-03-31</To>");
    expect(await t.outcome(filingId, 1)).toMatchObject({ outcome: "accepted", correlation_id: first.correlation_id });
    expect(await t.outcome(filingId, 2)).toMatchObject({ outcome: "accepted", correlation_id: second.correlation_id });
  });

  it("attaches the accounts iXBRL a part request carries: AttachedFiles, box 80, HMRC's business rules pass, accepted", async ({
    expect,
  }) => {
    const filingId = newFilingId();
    const ixbrlBase64 = ACCEPTED_DORMANT_ACCOUNTS.toString("base64");
    const request = t.request({ filingId, companyNumber: "20260005" });
    const response = await t.filingBus.rpcCall("tax.submit", "tax.submit_part", {
      ...request,
      accounts: { ixbrl_base64: ixbrlBase64, covers: "this-period", filename: "16186885-20260331.xhtml" },
    });
    const xml = response.submitted_xml;
    expect(xml).toContain("<ThisPeriodAccounts>yes</ThisPeriodAccounts>");
    expect(xml).not.toContain("NoAccountsReason");
    // The registry's bytes, unchanged, inside the IRmarked body.
    expect(xml).toContain(`<EncodedInlineXBRLDocument Filename="16186885-20260331.xhtml">${ixbrlBase64}</EncodedInlineXBRLDocument>`);
    expect(await checkCt600BusinessRules(xml)).toEqual([]);
    // The simulator applies the same rules at poll time.
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted", correlation_id: response.correlation_id });
  });

  it("attaches the whole period's accounts to both parts of a split period as a different period (box 85)", async ({ expect }) => {
    const filingId = newFilingId();
    const accounts = { ixbrl_base64: ACCEPTED_DORMANT_ACCOUNTS.toString("base64"), covers: "different-period" as const };
    const parts = [
      { partNumber: 1, period: { start: "2024-10-01", end: "2025-09-30" } },
      { partNumber: 2, period: { start: "2025-10-01", end: "2026-03-31" } },
    ];
    for (const part of parts) {
      const request = t.request({ filingId, companyNumber: "20260006", partsTotal: 2, ...part });
      const { submitted_xml: xml } = await t.filingBus.rpcCall("tax.submit", "tax.submit_part", { ...request, accounts });
      expect(xml).toContain("<DifferentPeriod>yes</DifferentPeriod>");
      expect(xml).not.toContain("ThisPeriodAccounts");
      // No file name given: the builder's default.
      expect(xml).toContain(`<EncodedInlineXBRLDocument Filename="accounts.xhtml">${accounts.ixbrl_base64}</EncodedInlineXBRLDocument>`);
      expect(await checkCt600BusinessRules(xml)).toEqual([]);
    }
    expect(await t.outcome(filingId, 1)).toMatchObject({ outcome: "accepted" });
    expect(await t.outcome(filingId, 2)).toMatchObject({ outcome: "accepted" });
  });

  it("never submits a part twice: repeated and concurrent submit RPCs get the first submission", async ({ expect }) => {
    const filingId = newFilingId();
    const companyNumber = "20260001";
    const part = { filingId, companyNumber };
    const [a, b] = await Promise.all([t.submit(part), t.submit(part)]);
    const c = await t.submit(part);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted", correlation_id: a.correlation_id });
    const submits = await t.received({ company: companyNumber, kind: "submit" });
    expect(submits).toHaveLength(1);
    // ... and only one chain of polls: one outcome.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(t.reported.outcomes.filter((o) => o.filing_id === filingId)).toHaveLength(1);
  });

  it("a poll redelivered after the part completed publishes nothing (the deleted submission's 2000 is not an error)", async ({
    expect,
  }) => {
    const filingId = newFilingId();
    const companyNumber = "20260002";
    const response = await t.submit({ filingId, companyNumber });
    await t.outcome(filingId);
    await waitFor(async () => (await t.received({ company: companyNumber, kind: "delete" })).length === 1);
    const command = {
      filing_id: filingId,
      part_number: 1,
      correlation_id: response.correlation_id,
      irmark_base64: response.irmark_base64,
      poll_interval_seconds: 1,
      give_up_at: new Date(Date.now() + 60_000).toISOString(),
      poll_number: 1,
    };
    await t.filingBus.publish("tax.poll_part", command);
    await t.filingBus.publish("tax.poll_part", command);
    await waitFor(async () => (await t.queueDepth("tax.poll")) === 0, { what: "the duplicates to be consumed" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.reported.outcomes.filter((o) => o.filing_id === filingId)).toHaveLength(1);
    const polls = (await t.received({ kind: "poll" })).filter((e) => e.correlationId === response.correlation_id);
    expect(polls).toHaveLength(1);
  });

  it("refuses the authority's refused credential with TAX_AUTH_FAILED (not retryable) and leaves nothing behind", async ({ expect }) => {
    const filingId = newFilingId();
    const error = await t.submit({ filingId, companyNumber: "20260003", password: "REFUSED" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TAX_AUTH_FAILED", retryable: false });
    expect((await t.received({ company: "20260003", kind: "submit" })).map((e) => e.answer)).toEqual(["error:1046"]);
    // Refused, so not recorded as submitted: corrected credentials go through.
    const response = await t.submit({ filingId, companyNumber: "20260003" });
    expect(response.correlation_id).toMatch(/^[0-9A-F]{32}$/);
  });

  it("refuses credentials sealed for another part", async ({ expect }) => {
    const request = t.request({ companyNumber: "20260004" });
    const other = t.request({ companyNumber: "20260004" });
    const error = await t.filingBus
      .rpcCall("tax.submit", "tax.submit_part", { ...request, credentials: other.credentials })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", retryable: false });
    expect(await t.received({ company: "20260004" })).toEqual([]);
  });
});

// Changes the simulator's timing, so it runs alone.
describe("tax submitter: pending answers", () => {
  it("reports a part still pending after its first poll (tax.part_polling), once", async ({ expect }) => {
    await t.control("PUT", "/timing", { outcomeDelayMs: 1_500 });
    try {
      const filingId = newFilingId();
      const response = await t.submit({ filingId, companyNumber: "00000001" });
      const { correlation_id } = response;
      expect(await t.outcome(filingId)).toMatchObject({ outcome: "accepted" });
      // With the record of the submit, should the RPC's answer never have reached the filing service.
      const submission = {
        irmark_base64: response.irmark_base64,
        submitted_at: response.submitted_at,
        submitted_xml: response.submitted_xml,
      };
      expect(t.reported.polling.filter((p) => p.filing_id === filingId)).toMatchObject([{ part_number: 1, correlation_id, submission }]);
    } finally {
      await t.control("PUT", "/timing", { outcomeDelayMs: 100 });
    }
  });
});
