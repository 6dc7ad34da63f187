import { randomUUID } from "node:crypto";
import {
  FILING_RPC_QUEUE,
  type AccountsSubmitResponse,
  type Ct600FilingInput,
  type Ct600SubmitResponse,
  type FilingRpcCaller,
} from "@dormant/contracts";
import { checkCt600BusinessRules } from "@dormant/govtalk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitFingerprint } from "../fingerprint.ts";
import { seedAccountsFiling } from "../test-support/seed.ts";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";
import type { NewFiling } from "./new-filing.ts";
import { createPendingFiling } from "./pending-filing.ts";

// Issue 11, item 8: a CT600 attaches the dormant accounts iXBRL the registry received, when the
// same account filed them for the same company and period end, and gives the dormant reason
// otherwise. The whole path in-process: the filing service, billing, both submitters and the
// authority simulator, which applies HMRC's business rules v1.96 to every CT600 at poll time; the
// stored message is judged again here by the same rules (HMRC's own XSLT, through xsltproc).
let h: FilingHarness;
beforeAll(async () => {
  h = await startFilingHarness("ct600_accounts", { billing: true, taxSubmitter: true, registrySubmitter: true });
});
afterAll(async () => {
  await h?.teardown();
});

async function funded(): Promise<FilingRpcCaller> {
  return h.caller({ account_id: await h.openAccount(10_000), key_id: `key_${randomUUID().replaceAll("-", "")}` });
}

async function document(caller: FilingRpcCaller, filingId: string, type: "ct600_xml" | "ixbrl_accounts", part?: 1 | 2) {
  const answer = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get_document", {
    caller,
    filing_id: filingId,
    document_type: type,
    ...(part ? { part } : {}),
  });
  return { ...answer, text: Buffer.from(answer.content_base64, "base64").toString("utf8") };
}

/** Files accounts for the caller and waits until the registry accepted them. */
async function accountsAccepted(caller: FilingRpcCaller, company: string, periodEnd: string, approval: string): Promise<string> {
  const answer = (await h.submitAccounts(caller, {
    company_number: company,
    period_end: periodEnd,
    approval: { date: approval },
  })) as AccountsSubmitResponse;
  expect((await h.waitForEvent(answer.filing_id, 20_000)).type).toBe("filing.accepted");
  return answer.filing_id;
}

async function ct600Accepted(caller: FilingRpcCaller, filing: Ct600FilingInput, idempotencyKey?: string): Promise<string> {
  const answer = (await h.submitCt600(caller, filing, idempotencyKey ? { idempotencyKey } : {})) as Ct600SubmitResponse;
  expect((await h.waitForEvent(answer.filing_id, 20_000)).type).toBe("filing.accepted");
  return answer.filing_id;
}

const attachment = (fileName: string, base64: string) =>
  `<EncodedInlineXBRLDocument Filename="${fileName}">${base64}</EncodedInlineXBRLDocument>`;

/** The return gives the dormant reason and attaches nothing; HMRC's rules find no failure. */
async function expectDormantReason(xml: string): Promise<void> {
  expect(xml).toContain("<NoAccountsReason>Company dormant</NoAccountsReason>");
  expect(xml).not.toContain("AttachedFiles");
  expect(xml).not.toContain("ThisPeriodAccounts");
  expect(await checkCt600BusinessRules(xml)).toEqual([]);
}

describe("a CT600 attaches the accounts the registry received", () => {
  it("after an accounts filing of the same account, company and period end: the same iXBRL, this period, accepted, HMRC's rules pass", async () => {
    const caller = await funded();
    const accountsId = await accountsAccepted(caller, "00000001", "2026-03-31", "2026-05-01");
    const ixbrl = await document(caller, accountsId, "ixbrl_accounts");

    const filingId = await ct600Accepted(caller, { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" });
    const { text: xml } = await document(caller, filingId, "ct600_xml");
    // Byte for byte the registry's document, base64 inside the IRmarked body.
    expect(xml).toContain(attachment(ixbrl.file_name, ixbrl.content_base64));
    expect(xml).toContain("<ThisPeriodAccounts>yes</ThisPeriodAccounts>");
    expect(xml).not.toContain("NoAccountsReason");
    expect(await checkCt600BusinessRules(xml)).toEqual([]);
    // One transmission, and the stored part request refers to the accounts instead of copying them.
    const part = await h.service.db.filingPart.findFirstOrThrow({ where: { filingId } });
    expect(
      h.sim.context.received.list({ target: "tax", kind: "submit" }).filter((e) => e.correlationId === part.taxCorrelationId),
    ).toHaveLength(1);
    expect(part.submitRequest).toMatchObject({ accounts_filing_id: accountsId });
    expect(JSON.stringify(part.submitRequest)).not.toContain(ixbrl.content_base64.slice(0, 64));
  });

  it("with no accounts filing of its own: the dormant reason, even when another account filed that company's accounts", async () => {
    const other = await funded();
    await accountsAccepted(other, "00000006", "2026-03-31", "2026-05-01");
    const caller = await funded();
    const filingId = await ct600Accepted(caller, { company_number: "00000006", utr: "1234567890", period_end: "2026-03-31" });
    await expectDormantReason((await document(caller, filingId, "ct600_xml")).text);
    const part = await h.service.db.filingPart.findFirstOrThrow({ where: { filingId } });
    expect(part.submitRequest).not.toHaveProperty("accounts_filing_id");
  });

  it("a split period: both returns attach the whole period's accounts as a different period, accepted, HMRC's rules pass", async () => {
    const caller = await funded();
    // 00000005 was incorporated on 2025-05-12 and has never filed: its first period runs to 2026-10-31.
    const accountsId = await accountsAccepted(caller, "00000005", "2026-10-31", "2026-11-10");
    const ixbrl = await document(caller, accountsId, "ixbrl_accounts");

    const filingId = await ct600Accepted(caller, { company_number: "00000005", utr: "1234567890", period_end: "2026-10-31" });
    for (const part of [1, 2] as const) {
      const { text: xml } = await document(caller, filingId, "ct600_xml", part);
      expect(xml).toContain(attachment(ixbrl.file_name, ixbrl.content_base64));
      expect(xml).toContain("<DifferentPeriod>yes</DifferentPeriod>");
      expect(xml).not.toContain("ThisPeriodAccounts");
      expect(xml).not.toContain("NoAccountsReason");
      expect(await checkCt600BusinessRules(xml), `part ${part}`).toEqual([]);
    }
  });
});

describe("a CT600 created by an earlier request and resumed", () => {
  const input: Ct600FilingInput = { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" };

  /** The pending CT600 a submit wrote before it crashed (its claim already expired), as that submit planned it. */
  async function crashedCt600(caller: FilingRpcCaller, idempotencyKey: string): Promise<string> {
    const id = `fil_${randomUUID().replaceAll("-", "")}`;
    const period = { start: "2025-04-01", end: "2026-03-31" };
    const plan: NewFiling = {
      id,
      filingType: "ct600",
      companyNumber: "00000001",
      companyName: "LOVELACE ENGINES LIMITED",
      period,
      periodSplit: false,
      derivedValues: {
        company_name: "LOVELACE ENGINES LIMITED",
        period_start: period.start,
        is_first_year: false,
        declarant_name: "Augusta Ada Lovelace",
        declarant_status: "Director",
      },
      parts: [
        {
          partNumber: 1,
          period,
          request: {
            filing_id: id,
            part_number: 1,
            parts_total: 1,
            company: { number: "00000001", name: "LOVELACE ENGINES LIMITED", utr: "1234567890" },
            period,
            declarant: { name: "Augusta Ada Lovelace", status: "Director" },
          },
        },
      ],
      documents: [],
    };
    const created = await createPendingFiling(h.service.db, plan, {
      accountId: caller.account_id,
      keyId: caller.key_id,
      idempotencyKey,
      fingerprint: submitFingerprint("ct600", input),
      requestId: "crashed",
      feePence: 2000,
      claimToken: randomUUID(),
      claimSeconds: 0,
    });
    if (created === "exists") throw new Error("not created");
    return id;
  }

  it("sends the accounts its stored request refers to, read again", async () => {
    const caller = await funded();
    const accounts = await seedAccountsFiling(h.service.db, {
      accountId: caller.account_id,
      companyNumber: "00000001",
      periodEnd: "2026-03-31",
    });
    const idempotencyKey = randomUUID();
    const crashed = await crashedCt600(caller, idempotencyKey);
    expect(await ct600Accepted(caller, input, idempotencyKey)).toBe(crashed);
    const ixbrl = await h.service.db.document.findFirstOrThrow({ where: { filingId: accounts.id, type: "ixbrl_accounts" } });
    const { text: xml } = await document(caller, crashed, "ct600_xml");
    expect(xml).toContain(attachment(ixbrl.fileName, Buffer.from(ixbrl.content).toString("base64")));
    expect(xml).toContain("<ThisPeriodAccounts>yes</ThisPeriodAccounts>");
    expect(await checkCt600BusinessRules(xml)).toEqual([]);
  });

  it("gives the dormant reason when the accounts it referred to are gone (a pending accounts filing removed meanwhile)", async () => {
    const caller = await funded();
    const accounts = await seedAccountsFiling(h.service.db, {
      accountId: caller.account_id,
      companyNumber: "00000001",
      periodEnd: "2026-03-31",
      acknowledged: false,
    });
    const idempotencyKey = randomUUID();
    const crashed = await crashedCt600(caller, idempotencyKey);
    expect((await h.service.db.filingPart.findFirstOrThrow({ where: { filingId: crashed } })).submitRequest).toMatchObject({
      accounts_filing_id: accounts.id,
    });
    await h.service.db.filing.delete({ where: { id: accounts.id } });
    expect(await ct600Accepted(caller, input, idempotencyKey)).toBe(crashed);
    await expectDormantReason((await document(caller, crashed, "ct600_xml")).text);
  });
});
