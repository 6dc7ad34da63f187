import { type AppError, Filing, FilingsList, type FilingRpcCaller } from "@dormant/contracts";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { accountScope, keyScope } from "../state/filing-scope.ts";
import {
  acceptSeededAccounts,
  acceptSeededPart,
  rejectSeededPart,
  seedAccountsFiling,
  seedCt600Filing,
  type SeededFiling,
} from "../test-support/seed.ts";
import { getFiling, listFilings } from "./filing-reads.ts";

let database: TestDatabase;
let db: FilingDb;
const owner: FilingRpcCaller = { account_id: "acc_reads", key_id: "key_reads", mode: "live", request_id: "req" };
const stranger: FilingRpcCaller = { ...owner, key_id: "key_other" };
let single: SeededFiling;
let split: SeededFiling;
let accounts: SeededFiling;
let rejected: SeededFiling;

async function accept(filing: SeededFiling, part: number) {
  await acceptSeededPart(db, filing, part, { irmarkBase32: "R".repeat(31) + String(part), message: "ok" });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("it succeeded"),
    (error: unknown) => error as AppError,
  );

beforeAll(async () => {
  database = await createFilingTestDatabase("reads");
  db = createFilingDb(database.url);
  const mine = { keyId: owner.key_id, accountId: owner.account_id };
  // Oldest first: list answers newest first.
  single = await seedCt600Filing(db, 1, mine);
  split = await seedCt600Filing(db, 2, { ...mine, companyNumber: "00000005" });
  accounts = await seedAccountsFiling(db, mine);
  rejected = await seedCt600Filing(db, 1, { ...mine, companyNumber: "00000002", periodEnd: "2026-09-30" });
  await seedCt600Filing(db, 1, { keyId: stranger.key_id });
  await accept(single, 1);
  await accept(split, 1);
  await accept(split, 2);
  await rejectSeededPart(db, rejected, 1);
  await acceptSeededAccounts(db, accounts);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("filing.get", () => {
  it("shows a single-period CT600 with its top-level tax fields, valid against the contract", async () => {
    const filing = await getFiling(db, keyScope(owner), single.id);
    expect(Filing.parse(filing)).toEqual(filing);
    expect(filing).toEqual({
      filing_id: single.id,
      filing_type: "ct600",
      company_number: "00000001",
      company_name: "LOVELACE ENGINES LIMITED",
      period: { start: "2025-04-01", end: "2026-03-31" },
      status: "accepted",
      period_split: false,
      tax_status: "accepted",
      tax_correlation_id: single.correlationIds[0],
      tax_iru_number: `${"R".repeat(31)}1`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("shows a split CT600 with its parts", async () => {
    const filing = await getFiling(db, keyScope(owner), split.id);
    expect(filing.parts).toEqual([
      {
        part_number: 1,
        period: { start: "2025-01-01", end: "2025-12-31" },
        tax_status: "accepted",
        tax_correlation_id: split.correlationIds[0],
        tax_iru_number: `${"R".repeat(31)}1`,
      },
      {
        part_number: 2,
        period: { start: "2026-01-01", end: "2026-03-31" },
        tax_status: "accepted",
        tax_correlation_id: split.correlationIds[1],
        tax_iru_number: `${"R".repeat(31)}2`,
      },
    ]);
    expect(filing).toMatchObject({ period_split: true, tax_correlation_id: split.correlationIds[0] });
    expect(filing.tax_status).toBeUndefined();
  });

  it("shows accounts with their registry fields, and a rejection with its error", async () => {
    expect(await getFiling(db, keyScope(owner), accounts.id)).toMatchObject({
      filing_type: "accounts",
      status: "accepted",
      registry_status: "accepted",
      registry_submission_number: accounts.submissionNumber,
    });
    expect(await getFiling(db, keyScope(owner), rejected.id)).toMatchObject({
      status: "rejected",
      error: { code: "TAX_UTR_MISMATCH", message: "The UTR does not match." },
    });
  });

  it("is FILING_NOT_FOUND for another key's filing and for an unknown id", async () => {
    expect((await failure(getFiling(db, keyScope(stranger), single.id))).code).toBe("FILING_NOT_FOUND");
    expect((await failure(getFiling(db, keyScope(owner), "fil_nothinghere"))).code).toBe("FILING_NOT_FOUND");
  });
});

describe("filing.list", () => {
  it("lists the key's filings newest first with the total", async () => {
    const page = await listFilings(db, keyScope(owner), { limit: 20, offset: 0 });
    expect(FilingsList.parse(page)).toEqual(page);
    expect(page.filings.map((f) => f.filing_id)).toEqual([rejected.id, accounts.id, split.id, single.id]);
    expect(page.pagination).toEqual({ total: 4, limit: 20, offset: 0, has_more: false });
    expect(page.filings[0]).toEqual({
      filing_id: rejected.id,
      filing_type: "ct600",
      company_number: "00000002",
      company_name: "LOVELACE ENGINES LIMITED",
      period_end: "2026-09-30",
      status: "rejected",
      created_at: expect.any(String),
    });
  });

  it("pages with limit and offset", async () => {
    const first = await listFilings(db, keyScope(owner), { limit: 3, offset: 0 });
    expect(first.filings).toHaveLength(3);
    expect(first.pagination).toEqual({ total: 4, limit: 3, offset: 0, has_more: true });
    const second = await listFilings(db, keyScope(owner), { limit: 3, offset: 3 });
    expect(second.filings.map((f) => f.filing_id)).toEqual([single.id]);
    expect(second.pagination.has_more).toBe(false);
    expect((await listFilings(db, keyScope(owner), { limit: 3, offset: 10 })).filings).toEqual([]);
  });

  it("filters by status, type and company number", async () => {
    const ids = async (criteria: object) =>
      (await listFilings(db, keyScope(owner), { limit: 20, offset: 0, ...criteria })).filings.map((f) => f.filing_id);
    expect(await ids({ status: "rejected" })).toEqual([rejected.id]);
    expect(await ids({ type: "accounts" })).toEqual([accounts.id]);
    expect(await ids({ company_number: "00000005" })).toEqual([split.id]);
    expect(await ids({ status: "accepted", type: "ct600" })).toEqual([split.id, single.id]);
    expect(await ids({ status: "pending" })).toEqual([]);
  });

  it("never shows another key's filings", async () => {
    const page = await listFilings(db, keyScope(stranger), { limit: 20, offset: 0 });
    expect(page.pagination.total).toBe(1);
    expect(page.filings.map((f) => f.filing_id)).not.toContain(single.id);
  });
});

describe("the account's reads (filing.account_get, filing.account_list)", () => {
  const account = accountScope({ account_id: owner.account_id, request_id: "req" });

  it("sees the filings of every key of the account, and no other account's", async () => {
    const secondKey = await seedCt600Filing(db, 1, { accountId: owner.account_id, keyId: "key_reads_second", companyNumber: "00000009" });
    const page = await listFilings(db, account, { limit: 20, offset: 0 });
    expect(page.filings.map((f) => f.filing_id)).toEqual([secondKey.id, rejected.id, accounts.id, split.id, single.id]);
    expect(page.pagination).toEqual({ total: 5, limit: 20, offset: 0, has_more: false });
    expect(await getFiling(db, account, secondKey.id)).toMatchObject({ filing_id: secondKey.id, status: "submitted" });
    expect(await getFiling(db, account, single.id)).toEqual(await getFiling(db, keyScope(owner), single.id));
    // The stranger's filing (another key, another account) is not the account's.
    const elsewhere = await listFilings(db, accountScope({ account_id: "acc_reads_elsewhere", request_id: "req" }), {
      limit: 20,
      offset: 0,
    });
    expect(elsewhere.pagination.total).toBe(0);
  });

  it("is FILING_NOT_FOUND for another account's filing, with the same message as for an unknown id", async () => {
    const [theirs] = (await listFilings(db, keyScope(stranger), { limit: 1, offset: 0 })).filings;
    const foreign = await failure(getFiling(db, account, theirs!.filing_id));
    const unknown = await failure(getFiling(db, account, "fil_nothinghere"));
    expect([foreign.code, foreign.message]).toEqual(["FILING_NOT_FOUND", "No filing with this id for this account"]);
    expect([unknown.code, unknown.message]).toEqual([foreign.code, foreign.message]);
  });
});
