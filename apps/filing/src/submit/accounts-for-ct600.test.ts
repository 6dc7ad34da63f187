import { randomUUID } from "node:crypto";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { newFilingId } from "../ids.ts";
import { applyOutcome } from "../outcomes/apply-outcome.ts";
import { applyRegistryOutcome } from "../outcomes/registry-changes.ts";
import { readFiling } from "../state/filing-rows.ts";
import { seedAccountsFiling, type SeededFiling } from "../test-support/seed.ts";
import { attachedAccounts, readCt600Accounts } from "./accounts-for-ct600.ts";
import type { NewFiling, TaxPartDraft } from "./new-filing.ts";
import { createPendingFiling, type CreatedFiling } from "./pending-filing.ts";

// Which accounts a new CT600 attaches, as the statement that writes the pending filing finds them
// (src/submit/accounts-for-ct600.ts), on a real database; the end-to-end flows against the
// simulator are in ct600-accounts-attached.test.ts.
let database: TestDatabase;
let db: FilingDb;
beforeAll(async () => {
  database = await createFilingTestDatabase("accounts_for_ct600");
  db = createFilingDb(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const account = () => `acc_${randomUUID().replaceAll("-", "")}`;

function ct600(companyNumber: string, periods: Array<{ start: string; end: string }>): NewFiling {
  const id = newFilingId();
  return {
    id,
    filingType: "ct600",
    companyNumber,
    companyName: "LOVELACE ENGINES LIMITED",
    period: { start: periods[0]!.start, end: periods.at(-1)!.end },
    periodSplit: periods.length === 2,
    derivedValues: {},
    parts: periods.map((period, index) => ({
      partNumber: index + 1,
      period,
      request: {
        filing_id: id,
        part_number: index + 1,
        parts_total: periods.length,
        company: { number: companyNumber, name: "LOVELACE ENGINES LIMITED", utr: "1234567890" },
        period,
        declarant: { name: "Augusta Ada Lovelace", status: "Director" },
      },
    })),
    documents: [],
  };
}

const YEAR = [{ start: "2025-04-01", end: "2026-03-31" }];

/**
 * A new CT600 of the account. The account's earlier live CT600s are ended `error` first: an
 * account has one live filing per type, company and period end (FILING_EXISTS), and these tests
 * write several for the same period to see which accounts each attaches.
 */
async function create(accountId: string, filing: NewFiling): Promise<CreatedFiling> {
  await db.$executeRaw`
    UPDATE filings SET status = 'error', version = version + 1
    WHERE account_id = ${accountId} AND filing_type = 'ct600' AND status IN ('pending', 'submitted', 'accepted')`;
  const created = await createPendingFiling(db, filing, {
    accountId,
    keyId: "key_ct600",
    idempotencyKey: randomUUID(),
    fingerprint: "f".repeat(64),
    requestId: "req",
    feePence: 2000,
    claimToken: randomUUID(),
    claimSeconds: 60,
  });
  if (created === "exists") throw new Error("not created");
  return created;
}

async function decide(filing: SeededFiling, outcome: "accepted" | "rejected"): Promise<void> {
  const base = {
    filing_id: filing.id,
    submission_number: filing.submissionNumber!,
    registry_status: outcome === "accepted" ? "ACCEPT" : "REJECT",
  };
  await applyOutcome(
    db,
    { messageId: randomUUID(), type: "registry.outcome", filingId: filing.id, requestId: "r" },
    applyRegistryOutcome(
      outcome === "accepted"
        ? { ...base, outcome, decided_at: new Date().toISOString() }
        : { ...base, outcome, error: { code: "REGISTRY_REJECTED", message: "rejected" }, rejections: [] },
    ),
  );
}

async function ixbrlOf(accountsFilingId: string): Promise<Buffer> {
  const document = await db.document.findFirstOrThrow({ where: { filingId: accountsFilingId, type: "ixbrl_accounts" } });
  return Buffer.from(document.content);
}

describe("the accounts a new CT600 attaches", () => {
  it("are the ixbrl_accounts document of the same account's accounts filing for the company and period end, referred to by every part", async () => {
    const accountId = account();
    const accounts = await seedAccountsFiling(db, { accountId, companyNumber: "00000001", periodEnd: "2026-03-31" });
    const created = await create(accountId, ct600("00000001", YEAR));
    expect(created.ct600Accounts).toMatchObject({
      filingId: accounts.id,
      period: { start: "2025-04-01", end: "2026-03-31" },
      fileName: "00000001-accounts.xhtml",
    });
    expect(Buffer.from(created.ct600Accounts!.content).equals(await ixbrlOf(accounts.id))).toBe(true);
    // The stored part request refers to them (no iXBRL in it), as the record returned says.
    const stored = await readFiling(db, created.filing.id);
    expect(stored).toEqual(created.filing);
    expect(stored!.parts[0]!.submitRequest).toMatchObject({ accounts_filing_id: accounts.id });
    expect(JSON.stringify(stored!.parts[0]!.submitRequest)).not.toContain("ixbrl");
    // ... and resuming reads the same bytes by that reference.
    expect(await readCt600Accounts(db, accounts.id)).toEqual(created.ct600Accounts);
  });

  it("are never another account's, another company's or another period end's", async () => {
    const [mine, other] = [account(), account()];
    await seedAccountsFiling(db, { accountId: other, companyNumber: "00000001", periodEnd: "2026-03-31" });
    await seedAccountsFiling(db, { accountId: mine, companyNumber: "00000006", periodEnd: "2026-03-31" });
    await seedAccountsFiling(db, { accountId: mine, companyNumber: "00000001", periodEnd: "2026-04-30" });
    const created = await create(mine, ct600("00000001", YEAR));
    expect(created.ct600Accounts).toBeNull();
    expect(created.filing.parts[0]!.submitRequest).not.toHaveProperty("accounts_filing_id");
    expect((await readFiling(db, created.filing.id))!.parts[0]!.submitRequest).not.toHaveProperty("accounts_filing_id");
  });

  it("are never those of a rejected accounts filing; a pending one, and once accepted the accepted one", async () => {
    const accountId = account();
    const rejected = await seedAccountsFiling(db, { accountId, companyNumber: "00000001", periodEnd: "2026-03-31" });
    await decide(rejected, "rejected");
    expect((await create(accountId, ct600("00000001", YEAR))).ct600Accounts).toBeNull();

    const pending = await seedAccountsFiling(db, { accountId, companyNumber: "00000001", periodEnd: "2026-03-31", acknowledged: false });
    expect((await create(accountId, ct600("00000001", YEAR))).ct600Accounts?.filingId).toBe(pending.id);
    // One live accounts filing per account, company and period end (FILING_EXISTS), so "accepted
    // before submitted before pending" now only orders what the index lets exist: one of them.
    await db.$executeRaw`UPDATE filings SET status = 'error', version = version + 1 WHERE id = ${pending.id}`;
    const accepted = await seedAccountsFiling(db, { accountId, companyNumber: "00000001", periodEnd: "2026-03-31" });
    await decide(accepted, "accepted");
    expect((await create(accountId, ct600("00000001", YEAR))).ct600Accounts?.filingId).toBe(accepted.id);
  });

  it("are attached to both parts of a split period, each covering a different period; to a single return of their period as this period", async () => {
    const accountId = account();
    await seedAccountsFiling(db, { accountId, companyNumber: "00000001", periodEnd: "2026-03-31" });
    const split = await create(
      accountId,
      ct600("00000001", [
        { start: "2025-01-01", end: "2025-12-31" },
        { start: "2026-01-01", end: "2026-03-31" },
      ]),
    );
    const drafts = split.filing.parts.map((part) => part.submitRequest as TaxPartDraft);
    expect(drafts.map((draft) => draft.accounts_filing_id)).toEqual([split.ct600Accounts!.filingId, split.ct600Accounts!.filingId]);
    expect(drafts.map((draft) => attachedAccounts(split.ct600Accounts!, draft).covers)).toEqual(["different-period", "different-period"]);

    const single = await create(accountId, ct600("00000001", YEAR));
    const draft = single.filing.parts[0]!.submitRequest as TaxPartDraft;
    expect(attachedAccounts(single.ct600Accounts!, draft)).toEqual({
      ixbrl_base64: Buffer.from(single.ct600Accounts!.content).toString("base64"),
      covers: "this-period",
      filename: "00000001-accounts.xhtml",
    });
    // A return whose start differs from the accounts' (period.start overridden) is not their period.
    expect(attachedAccounts(single.ct600Accounts!, { ...draft, period: { start: "2025-05-01", end: "2026-03-31" } }).covers).toBe(
      "different-period",
    );
  });
});
