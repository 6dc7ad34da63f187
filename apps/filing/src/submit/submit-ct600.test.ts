import { AppError, FILING_RPC_QUEUE, type Ct600SubmitResponse, type FilingRpcCaller } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";

// The whole live CT600 path in-process: the filing service, the real billing service, the real
// tax submitter and the authority simulator (fast timing), on real Postgres, Redis and RabbitMQ.
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("ct600", { billing: true, taxSubmitter: true });
});
afterAll(async () => {
  await h?.teardown();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("the submit succeeded"),
    (error: unknown) => error as AppError,
  );
const get = (caller: FilingRpcCaller, filingId: string) => h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get", { caller, filing_id: filingId });
const taxSubmits = (company: string) => h.sim.context.received.list({ target: "tax", company, kind: "submit" }).length;

async function funded(balancePence = 10_000): Promise<FilingRpcCaller> {
  return h.caller({ account_id: await h.openAccount(balancePence), key_id: `key_${Math.random().toString(36).slice(2)}` });
}

describe("live CT600 submit", () => {
  it("submits a single period, answers 202 with every field, and applies the acceptance", async () => {
    const caller = await funded();
    const answer = (await h.submitCt600(caller, {
      company_number: "00000001",
      utr: "1234567890",
      period_end: "2026-03-31",
    })) as Ct600SubmitResponse;
    expect(answer).toEqual({
      filing_id: expect.stringMatching(/^fil_[0-9A-Za-z]{22}$/),
      status: "submitted",
      tax_correlation_id: expect.stringMatching(/^[0-9A-F]{32}$/),
      period_split: false,
      submitted_at: expect.any(String),
      derived_values: {
        company_name: "LOVELACE ENGINES LIMITED",
        period_start: "2025-04-01",
        is_first_year: false,
        declarant_name: "Augusta Ada Lovelace",
        declarant_status: "Director",
      },
    });

    const event = await h.waitForEvent(answer.filing_id);
    expect(event).toMatchObject({
      type: "filing.accepted",
      payload: { account_id: caller.account_id, fee_pence: 2000, filing_type: "ct600", company_number: "00000001" },
    });
    const filing = await get(caller, answer.filing_id);
    expect(filing).toMatchObject({
      filing_id: answer.filing_id,
      filing_type: "ct600",
      status: "accepted",
      period: { start: "2025-04-01", end: "2026-03-31" },
      period_split: false,
      tax_status: "accepted",
      tax_correlation_id: answer.tax_correlation_id,
      tax_iru_number: expect.stringMatching(/^[A-Z2-7]{32}$/),
    });
    expect(filing.parts).toBeUndefined();
    expect(filing.error).toBeUndefined();
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 8000, { what: "the fee captured" });

    // The GovTalk message as sent is the ct600_xml document, its password masked; the PDF is
    // rendered on acceptance (src/documents, tested there).
    const documents = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list_documents", { caller, filing_id: answer.filing_id });
    expect(documents.documents).toEqual([
      { type: "ct600_pdf", name: `${answer.filing_id}-ct600.pdf`, size_bytes: expect.any(Number), generated_at: expect.any(String) },
      { type: "ct600_xml", name: `${answer.filing_id}-ct600.xml`, size_bytes: expect.any(Number), generated_at: expect.any(String) },
    ]);
    const xml = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get_document", {
      caller,
      filing_id: answer.filing_id,
      document_type: "ct600_xml",
    });
    const text = Buffer.from(xml.content_base64, "base64").toString("utf8");
    expect(xml.media_type).toBe("application/xml");
    expect(text).toContain("HMRC-CT-CT600");
    expect(text).not.toContain("correct horse battery");

    const history = await h.service.db.statusHistory.findMany({ where: { filingId: answer.filing_id }, orderBy: { id: "asc" } });
    expect(history.map((row) => [row.field, row.fromStatus, row.toStatus])).toEqual([
      ["status", null, "pending"],
      ["tax_status", null, "pending"],
      ["tax_status", "pending", "submitted"],
      ["status", "pending", "submitted"],
      ...(history.some((row) => row.toStatus === "polling") ? [["tax_status", "submitted", "polling"]] : []),
      ["tax_status", history.some((row) => row.toStatus === "polling") ? "polling" : "submitted", "accepted"],
      ["status", "submitted", "accepted"],
    ]);
    expect(history.every((row) => row.cause.length > 0)).toBe(true);
  });

  it("splits a period over 12 months into two parts, each submitted and accepted", async () => {
    const caller = await funded();
    // 00000005 was incorporated on 2025-05-12 and has never filed: its first period runs to 2026-10-31.
    const answer = (await h.submitCt600(caller, {
      company_number: "00000005",
      utr: "1234567890",
      period_end: "2026-10-31",
    })) as Ct600SubmitResponse;
    expect(answer).toMatchObject({
      status: "submitted",
      period_split: true,
      parts: [
        {
          part_number: 1,
          period: { start: "2025-05-12", end: "2026-05-11" },
          tax_status: "submitted",
          tax_correlation_id: answer.tax_correlation_id,
        },
        {
          part_number: 2,
          period: { start: "2026-05-12", end: "2026-10-31" },
          tax_status: "submitted",
          tax_correlation_id: expect.stringMatching(/^[0-9A-F]{32}$/),
        },
      ],
      derived_values: { period_start: "2025-05-12", is_first_year: true, declarant_name: "Amalie Emmy Noether" },
    });
    expect(answer.parts?.[1]?.tax_correlation_id).not.toBe(answer.tax_correlation_id);

    expect((await h.waitForEvent(answer.filing_id)).type).toBe("filing.accepted");
    const filing = await get(caller, answer.filing_id);
    expect(filing.status).toBe("accepted");
    expect(filing.tax_status).toBeUndefined();
    expect(filing.tax_iru_number).toBeUndefined();
    expect(filing.parts?.map((p) => [p.part_number, p.tax_status, p.tax_iru_number?.length])).toEqual([
      [1, "accepted", 32],
      [2, "accepted", 32],
    ]);
    const documents = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list_documents", { caller, filing_id: answer.filing_id });
    expect(documents.documents.map((d) => d.name)).toEqual([
      `${answer.filing_id}-ct600-part1.pdf`,
      `${answer.filing_id}-ct600-part2.pdf`,
      `${answer.filing_id}-ct600-part1.xml`,
      `${answer.filing_id}-ct600-part2.xml`,
    ]);
    // One fee for the filing, however many parts.
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 8000, { what: "one fee captured" });
  });

  it("applies a rejection with the authority's reason, and charges nothing", async () => {
    const caller = await funded();
    const answer = (await h.submitCt600(caller, {
      company_number: "00000002",
      utr: "1234567890",
      period_end: "2026-09-30",
    })) as Ct600SubmitResponse;
    const event = await h.waitForEvent(answer.filing_id);
    expect(event).toMatchObject({ type: "filing.rejected", payload: { error: { code: "TAX_UTR_MISMATCH" } } });
    const filing = await get(caller, answer.filing_id);
    expect(filing).toMatchObject({
      status: "rejected",
      tax_status: "rejected",
      error: { code: "TAX_UTR_MISMATCH", message: expect.stringMatching(/UTR/) },
    });
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 10_000, { what: "the hold released" });
    const documents = await failure(h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list_documents", { caller, filing_id: answer.filing_id }));
    expect(documents.code).toBe("FILING_NOT_COMPLETE");
  });

  it("answers TAX_AUTH_FAILED when the gateway refuses the credentials, keeping nothing", async () => {
    const caller = await funded();
    const error = await failure(
      h.submitCt600(caller, { company_number: "SC000001", utr: "1234567890", period_end: "2026-10-31" }, { password: "REFUSED" }),
    );
    expect(error).toMatchObject({ code: "TAX_AUTH_FAILED" });
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(await h.service.db.filing.count({ where: { accountId: caller.account_id } })).toBe(0);
    expect(await h.availablePence(caller.account_id)).toBe(10_000);
  });
});

describe("business validation against the registry", () => {
  it("refuses a company the registry does not know", async () => {
    const error = await failure(h.submitCt600(h.caller(), { company_number: "99999999", utr: "1234567890", period_end: "2026-03-31" }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "company_number", message: "company 99999999 is not known to the registry" }],
    });
  });

  it("refuses a period end in the future and a period that ends before it starts", async () => {
    const future = await failure(h.submitCt600(h.caller(), { company_number: "00000001", utr: "1234567890", period_end: "2099-03-31" }));
    expect(future.code).toBe("VALIDATION_ERROR");
    expect(future.details).toContainEqual({ field: "period_end", message: expect.stringMatching(/in the future/) });
    // 00000005 was incorporated on 2025-05-12: a period ending before that ends before it starts.
    const backwards = await failure(h.submitCt600(h.caller(), { company_number: "00000005", utr: "1234567890", period_end: "2025-03-31" }));
    expect(backwards.code).toBe("VALIDATION_ERROR");
    expect(backwards.details).toContainEqual({ field: "period.start", message: "period start 2025-05-12 is after period end 2025-03-31" });
  });
});

describe("idempotency backstop", () => {
  it("creates one filing and submits once for concurrent identical submits, then answers repeats with the original", async () => {
    const caller = await funded();
    const filing = { company_number: "31000001", utr: "1234567890", period_end: "2026-03-31", period: { start: "2025-04-01" } };
    const answers = (await Promise.all(
      Array.from({ length: 5 }, () => h.submitCt600(caller, filing, { idempotencyKey: "same-key" })),
    )) as Ct600SubmitResponse[];
    expect(new Set(answers.map((a) => a.filing_id)).size).toBe(1);
    expect(answers.every((a) => JSON.stringify(a) === JSON.stringify(answers[0]))).toBe(true);
    expect(await h.service.db.filing.count({ where: { accountId: caller.account_id } })).toBe(1);
    expect(taxSubmits("31000001")).toBe(1);

    const repeated = await h.submitCt600(caller, filing, { idempotencyKey: "same-key" });
    expect(repeated).toEqual(answers[0]);
    expect(taxSubmits("31000001")).toBe(1);

    const conflict = await failure(h.submitCt600(caller, { ...filing, utr: "9999999999" }, { idempotencyKey: "same-key" }));
    expect(conflict.code).toBe("IDEMPOTENCY_KEY_CONFLICT");
    // The same key under another API key is another request: not a replay, but a second filing of
    // the same account, company and period end, so 409 FILING_EXISTS (live-duplicate.test.ts).
    const otherKey = await failure(h.submitCt600({ ...caller, key_id: `${caller.key_id}_2` }, filing, { idempotencyKey: "same-key" }));
    expect(otherKey).toMatchObject({ code: "FILING_EXISTS", details: [{ filing_id: answers[0]!.filing_id }] });
  });
});
