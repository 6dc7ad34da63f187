import { FILING_RPC_QUEUE, type AccountsSubmitResponse, type FilingRpcCaller } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";

// The live accounts path in-process: the filing service, the real billing service, the real
// registry submitter and the authority simulator's XML gateway and data API.
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("accounts", { billing: true, registrySubmitter: true });
});
afterAll(async () => {
  await h?.teardown();
});

const get = (caller: FilingRpcCaller, filingId: string) => h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get", { caller, filing_id: filingId });

async function funded(): Promise<FilingRpcCaller> {
  return h.caller({ account_id: await h.openAccount(10_000), key_id: `key_${Math.random().toString(36).slice(2)}` });
}

describe("live accounts submit", () => {
  it("renders and files the iXBRL, answers 202 with every field, and applies the acceptance", async () => {
    const caller = await funded();
    const filing = { company_number: "00000001", period_end: "2026-03-31", approval: { date: "2026-05-01" } };
    const answer = (await h.submitAccounts(caller, filing, { idempotencyKey: "accounts-1" })) as AccountsSubmitResponse;
    expect(answer).toEqual({
      filing_id: expect.stringMatching(/^fil_[0-9A-Za-z]{22}$/),
      status: "submitted",
      registry_submission_number: expect.stringMatching(/^[0-9A-Z]{6}$/),
      submitted_at: expect.any(String),
      derived_values: {
        company_name: "LOVELACE ENGINES LIMITED",
        entity_type: "ltd",
        period_start: "2025-04-01",
        is_first_year: false,
        director_name: "Augusta Ada Lovelace",
        approval_date: "2026-05-01",
        share_capital: 100,
        cash: 100,
      },
    });
    expect(await h.submitAccounts(caller, filing, { idempotencyKey: "accounts-1" })).toEqual(answer);

    expect((await h.waitForEvent(answer.filing_id)).type).toBe("filing.accepted");
    expect(await get(caller, answer.filing_id)).toMatchObject({
      filing_type: "accounts",
      status: "accepted",
      period_split: false,
      registry_status: "accepted",
      registry_submission_number: answer.registry_submission_number,
    });
    const submissions = h.sim.context.received.list({ target: "registry", company: "00000001", kind: "submit" });
    expect(submissions.map((s) => s.submissionNumber)).toEqual([answer.registry_submission_number]);

    const documents = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list_documents", { caller, filing_id: answer.filing_id });
    expect(documents.documents).toEqual([
      { type: "ixbrl_accounts", name: "00000001-20260331.xhtml", size_bytes: expect.any(Number), generated_at: expect.any(String) },
      { type: "accounts_pdf", name: "00000001-accounts-2026-03-31.pdf", size_bytes: expect.any(Number), generated_at: expect.any(String) },
    ]);
    const ixbrl = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get_document", {
      caller,
      filing_id: answer.filing_id,
      document_type: "ixbrl_accounts",
    });
    expect(ixbrl.media_type).toBe("application/xhtml+xml");
    expect(Buffer.from(ixbrl.content_base64, "base64").toString("utf8")).toContain("LOVELACE ENGINES LIMITED");
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 8000, { what: "the fee captured" });
  });

  it("records the registry's rejection of a wrong authentication code, and charges nothing", async () => {
    const caller = await funded();
    const answer = (await h.submitAccounts(
      caller,
      { company_number: "00000001", period_end: "2026-03-31", approval: { date: "2026-05-02" } },
      { authCode: "000000" },
    )) as AccountsSubmitResponse;
    expect(await h.waitForEvent(answer.filing_id)).toMatchObject({
      type: "filing.rejected",
      payload: { error: { code: "AUTH_CODE_INVALID" } },
    });
    expect(await get(caller, answer.filing_id)).toMatchObject({
      status: "rejected",
      registry_status: "rejected",
      error: { code: "AUTH_CODE_INVALID" },
    });
    await waitFor(async () => (await h.availablePence(caller.account_id)) === 10_000, { what: "the hold released" });
  });

  it("gives every filing its own submission number", async () => {
    // Three accounts: one account has one live filing per company and period end (FILING_EXISTS).
    const answers = (await Promise.all(
      ["2026-05-03", "2026-05-04", "2026-05-05"].map(async (date) =>
        h.submitAccounts(await funded(), { company_number: "SC000001", period_end: "2025-10-31", approval: { date } }),
      ),
    )) as AccountsSubmitResponse[];
    expect(new Set(answers.map((a) => a.registry_submission_number)).size).toBe(3);
  });
});
