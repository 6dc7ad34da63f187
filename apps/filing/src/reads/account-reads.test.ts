import { randomUUID } from "node:crypto";
import {
  AppError,
  DocumentChunk,
  DocumentsList,
  Filing,
  FILING_RPC_QUEUE,
  type FilingAccountReader,
  type FilingRpcCaller,
  FilingsList,
  FilingStatusHistory,
  type ListFilingsCriteria,
} from "@dormant/contracts";
import { rejectionOf, waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptSeededAccounts,
  acceptSeededPart,
  rejectSeededPart,
  seedAccountsFiling,
  seedCt600Filing,
  type SeededFiling,
} from "../test-support/seed.ts";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";

// The account dashboard's account-wide reads (filing.account_*) through the running service on a
// vhost and database of this file's own: every filing of the account, whichever of its keys made
// it, and nothing of another account's (FILING_NOT_FOUND, exactly as an unknown filing). The
// accounts are this file's own too. The PDFs are the documents consumer's (filing.accepted), as
// in production; a read that finds one missing renders it through the same code as the key's
// reads (document-reads.test.ts covers that path for both scopes).
let h: FilingHarness;
const run = randomUUID().replaceAll("-", "").slice(0, 12);
const accountId = `acc_mine_${run}`;
const otherAccountId = `acc_theirs_${run}`;
const keyA: FilingRpcCaller = { account_id: accountId, key_id: `key_a_${run}`, mode: "live", request_id: "req-key-a" };
const keyB: FilingRpcCaller = { ...keyA, key_id: `key_b_${run}`, request_id: "req-key-b" };
const reader = (account = accountId): FilingAccountReader => ({ account_id: account, request_id: `req-${randomUUID()}` });
let single: SeededFiling; // key A, CT600, accepted
let split: SeededFiling; // key B, split CT600, submitted
let accounts: SeededFiling; // key B, accounts, accepted, client reference
let rejected: SeededFiling; // key A, CT600, rejected
let theirs: SeededFiling; // the other account, CT600, accepted

const list = (criteria: Partial<ListFilingsCriteria>, account = accountId) =>
  h.peer.rpcCall(FILING_RPC_QUEUE, "filing.account_list", { reader: reader(account), criteria: { limit: 20, offset: 0, ...criteria } });
const ids = async (criteria: Partial<ListFilingsCriteria>) => (await list(criteria)).filings.map((f) => f.filing_id);
const get = (filingId: string) => h.peer.rpcCall(FILING_RPC_QUEUE, "filing.account_get", { reader: reader(), filing_id: filingId });
const history = (filingId: string, account = accountId) =>
  h.peer.rpcCall(FILING_RPC_QUEUE, "filing.account_history", { reader: reader(account), filing_id: filingId });
const documents = (filingId: string) =>
  h.peer.rpcCall(FILING_RPC_QUEUE, "filing.account_list_documents", { reader: reader(), filing_id: filingId });
const chunk = (filingId: string, documentType: "ct600_pdf" | "ct600_xml" | "accounts_pdf", offset = 0, length = 4096) =>
  h.peer.rpcCall(FILING_RPC_QUEUE, "filing.account_get_document_chunk", {
    reader: reader(),
    filing_id: filingId,
    document_type: documentType,
    offset,
    length,
  });

beforeAll(async () => {
  h = await startFilingHarness("account_reads");
  const db = h.service.db;
  const mine = { accountId };
  // Oldest first: the list answers newest first.
  single = await seedCt600Filing(db, 1, { ...mine, keyId: keyA.key_id });
  split = await seedCt600Filing(db, 2, { ...mine, keyId: keyB.key_id, companyNumber: "00000005" });
  theirs = await seedCt600Filing(db, 1, { accountId: otherAccountId, keyId: `key_theirs_${run}` });
  accounts = await seedAccountsFiling(db, { ...mine, keyId: keyB.key_id });
  rejected = await seedCt600Filing(db, 1, { ...mine, keyId: keyA.key_id, companyNumber: "00000002", periodEnd: "2026-09-30" });
  await db.filing.update({ where: { id: accounts.id }, data: { clientReference: "INV-2026-001" } });
  await acceptSeededPart(db, single, 1);
  await acceptSeededPart(db, theirs, 1);
  await rejectSeededPart(db, rejected, 1);
  await acceptSeededAccounts(db, accounts);
  for (const filing of [single, accounts]) {
    await waitFor(() => h.eventsFor(filing.id).find((e) => e.type === "filing.documents_ready"), {
      timeoutMs: 45_000,
      what: `the documents of ${filing.id}`,
    });
  }
});
afterAll(async () => {
  await h?.teardown();
});

describe("filing.account_list", () => {
  it("lists the filings of every key of the account newest first, and never another account's", async () => {
    const page = await list({});
    expect(FilingsList.parse(page)).toEqual(page);
    expect(page.filings.map((f) => f.filing_id)).toEqual([rejected.id, accounts.id, split.id, single.id]);
    expect(page.pagination).toEqual({ total: 4, limit: 20, offset: 0, has_more: false });
    expect(page.filings[1]).toEqual({
      filing_id: accounts.id,
      filing_type: "accounts",
      company_number: "00000001",
      company_name: "LOVELACE ENGINES LIMITED",
      period_end: "2026-03-31",
      status: "accepted",
      client_reference: "INV-2026-001",
      created_at: expect.any(String),
    });
    // The other account sees its own filing and nothing of this one's; an account without filings, none.
    expect((await list({}, otherAccountId)).filings.map((f) => f.filing_id)).toEqual([theirs.id]);
    expect(await list({}, `acc_nobody_${run}`)).toEqual({ filings: [], pagination: { total: 0, limit: 20, offset: 0, has_more: false } });
  });

  it("leaves the gateway's key-scoped list as it was: one key's filings only", async () => {
    const keyList = (caller: FilingRpcCaller) =>
      h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list", { caller, criteria: { limit: 20, offset: 0 } });
    expect((await keyList(keyA)).filings.map((f) => f.filing_id)).toEqual([rejected.id, single.id]);
    expect((await keyList(keyB)).filings.map((f) => f.filing_id)).toEqual([accounts.id, split.id]);
  });

  it("filters by status, type, company number and client reference", async () => {
    expect(await ids({ status: "accepted" })).toEqual([accounts.id, single.id]);
    expect(await ids({ status: "submitted" })).toEqual([split.id]);
    expect(await ids({ type: "ct600" })).toEqual([rejected.id, split.id, single.id]);
    expect(await ids({ type: "ct600", status: "accepted" })).toEqual([single.id]);
    expect(await ids({ company_number: "00000005" })).toEqual([split.id]);
    expect(await ids({ client_reference: "INV-2026-001" })).toEqual([accounts.id]);
    expect(await ids({ status: "pending" })).toEqual([]);
    // The other account's accepted CT600 matches the filters but is not the account's.
    expect(await ids({ status: "accepted", type: "ct600", company_number: "00000001" })).toEqual([single.id]);
  });

  it("pages with limit and offset over the whole account", async () => {
    const first = await list({ limit: 3 });
    expect(first.filings.map((f) => f.filing_id)).toEqual([rejected.id, accounts.id, split.id]);
    expect(first.pagination).toEqual({ total: 4, limit: 3, offset: 0, has_more: true });
    const second = await list({ limit: 3, offset: 3 });
    expect(second.filings.map((f) => f.filing_id)).toEqual([single.id]);
    expect(second.pagination).toEqual({ total: 4, limit: 3, offset: 3, has_more: false });
    expect(await list({ limit: 3, offset: 10 })).toEqual({ filings: [], pagination: { total: 4, limit: 3, offset: 10, has_more: false } });
    const filtered = await list({ type: "ct600", limit: 1, offset: 1 });
    expect(filtered.filings.map((f) => f.filing_id)).toEqual([split.id]);
    expect(filtered.pagination).toEqual({ total: 3, limit: 1, offset: 1, has_more: true });
  });
});

describe("filing.account_get", () => {
  it("shows a filing of either key of the account, as filing.get shows it to its key", async () => {
    const mine = await get(single.id);
    expect(Filing.parse(mine)).toEqual(mine);
    expect(mine).toEqual(await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get", { caller: keyA, filing_id: single.id }));
    expect(await get(split.id)).toMatchObject({ filing_id: split.id, period_split: true, status: "submitted" });
    expect(await get(accounts.id)).toMatchObject({ filing_id: accounts.id, filing_type: "accounts", client_reference: "INV-2026-001" });
  });

  it("is FILING_NOT_FOUND for another account's filing, exactly as for an unknown id", async () => {
    const foreign = await rejectionOf(get(theirs.id), AppError);
    const unknown = await rejectionOf(get("fil_nothinghere"), AppError);
    expect(foreign.code).toBe("FILING_NOT_FOUND");
    expect([foreign.code, foreign.message]).toEqual([unknown.code, unknown.message]);
  });
});

describe("filing.account_history", () => {
  /** A change as [field, part, from, to]: what the page shows. */
  const moves = (answer: FilingStatusHistory) => answer.changes.map((c) => [c.field, c.part_number ?? null, c.from_status, c.to_status]);

  it("tells a split CT600's changes oldest first, each part's by its number, as status_history holds them", async () => {
    const answer = await history(split.id);
    expect(FilingStatusHistory.parse(answer)).toEqual(answer);
    expect(answer.filing_id).toBe(split.id);
    expect(moves(answer)).toEqual([
      ["status", null, null, "pending"],
      ["tax_status", 1, null, "pending"],
      ["tax_status", 2, null, "pending"],
      ["tax_status", 1, "pending", "submitted"],
      ["tax_status", 2, "pending", "submitted"],
      ["status", null, "pending", "submitted"],
    ]);
    const rows = await h.service.db.statusHistory.findMany({ where: { filingId: split.id }, orderBy: { id: "asc" } });
    expect(answer.changes.map((c) => c.occurred_at)).toEqual(rows.map((r) => r.occurredAt.toISOString()));
    // What changed and when, never why: the rows' cause (request and correlation ids) stays in the table.
    expect(rows.every((r) => r.cause.length > 0)).toBe(true);
    for (const change of answer.changes) expect(change).not.toHaveProperty("cause");
  });

  it("ends with the outcome: the part accepted, then the filing; the registry's for accounts", async () => {
    expect(moves(await history(single.id)).slice(-2)).toEqual([
      ["tax_status", 1, "submitted", "accepted"],
      ["status", null, "submitted", "accepted"],
    ]);
    expect(moves(await history(rejected.id)).at(-1)).toEqual(["status", null, "submitted", "rejected"]);
    expect(moves(await history(accounts.id))).toEqual([
      ["status", null, null, "pending"],
      ["registry_status", null, null, "pending"],
      ["registry_status", null, "pending", "submitted"],
      ["status", null, "pending", "submitted"],
      ["registry_status", null, "submitted", "accepted"],
      ["status", null, "submitted", "accepted"],
    ]);
  });

  it("is FILING_NOT_FOUND for another account's filing, exactly as for an unknown id", async () => {
    const foreign = await rejectionOf(history(theirs.id), AppError);
    const unknown = await rejectionOf(history("fil_nothinghere"), AppError);
    expect(foreign.code).toBe("FILING_NOT_FOUND");
    expect([foreign.code, foreign.message]).toEqual([unknown.code, unknown.message]);
    // The other account reads its own; this account's filing is as unknown to it.
    expect((await history(theirs.id, otherAccountId)).changes.at(-1)).toMatchObject({ field: "status", to_status: "accepted" });
    const mineToThem = await rejectionOf(history(single.id, otherAccountId), AppError);
    expect([mineToThem.code, mineToThem.message]).toEqual([unknown.code, unknown.message]);
  });
});

describe("filing.account_list_documents", () => {
  it("lists an accepted filing's documents as the key's own list does", async () => {
    const listed = await documents(single.id);
    expect(DocumentsList.parse(listed)).toEqual(listed);
    expect(listed.documents.map((d) => [d.type, d.name])).toEqual([
      ["ct600_pdf", `${single.id}-ct600.pdf`],
      ["ct600_xml", `${single.id}-ct600.xml`],
    ]);
    expect(listed).toEqual(await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list_documents", { caller: keyA, filing_id: single.id }));
    expect((await documents(accounts.id)).documents.map((d) => d.type)).toEqual(["ixbrl_accounts", "accounts_pdf"]);
  });

  it("is FILING_NOT_COMPLETE before acceptance and FILING_NOT_FOUND for another account's filing or an unknown id", async () => {
    expect((await rejectionOf(documents(rejected.id), AppError)).code).toBe("FILING_NOT_COMPLETE");
    expect((await rejectionOf(documents(split.id), AppError)).code).toBe("FILING_NOT_COMPLETE");
    const foreign = await rejectionOf(documents(theirs.id), AppError);
    const unknown = await rejectionOf(documents("fil_nothinghere"), AppError);
    expect(foreign.code).toBe("FILING_NOT_FOUND");
    expect([foreign.code, foreign.message]).toEqual([unknown.code, unknown.message]);
  });
});

describe("filing.account_get_document_chunk", () => {
  it("serves an accepted filing's document slice by slice, the same bytes the key's own download gets", async () => {
    const slices: Buffer[] = [];
    let total = Number.POSITIVE_INFINITY;
    for (let offset = 0; offset < total; offset += 4096) {
      const answer = await chunk(accounts.id, "accounts_pdf", offset);
      expect(DocumentChunk.parse(answer)).toEqual(answer);
      expect(answer).toMatchObject({ document_type: "accounts_pdf", media_type: "application/pdf", offset });
      total = answer.total_bytes;
      slices.push(Buffer.from(answer.content_base64, "base64"));
    }
    const whole = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get_document", {
      caller: { ...keyB },
      filing_id: accounts.id,
      document_type: "accounts_pdf",
    });
    expect(slices.length).toBeGreaterThan(1);
    expect(Buffer.concat(slices).equals(Buffer.from(whole.content_base64, "base64"))).toBe(true);
    expect(Buffer.from((await chunk(single.id, "ct600_xml", 0, 64)).content_base64, "base64").toString("utf8")).toContain(
      "<GovTalkMessage>",
    );
  });

  it("refuses as the key's own download does: not complete, not its kind, not the account's", async () => {
    expect((await rejectionOf(chunk(rejected.id, "ct600_pdf"), AppError)).code).toBe("FILING_NOT_COMPLETE");
    expect((await rejectionOf(chunk(single.id, "accounts_pdf"), AppError)).code).toBe("DOCUMENT_NOT_FOUND");
    const foreign = await rejectionOf(chunk(theirs.id, "ct600_xml"), AppError);
    const unknown = await rejectionOf(chunk("fil_nothinghere", "ct600_xml"), AppError);
    expect(foreign.code).toBe("FILING_NOT_FOUND");
    expect([foreign.code, foreign.message]).toEqual([unknown.code, unknown.message]);
  });
});
