import { randomBytes } from "node:crypto";
import type { Filing, FilingStatusChange } from "@dormant/contracts";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedUpAgent } from "../test-support/test-dashboard.ts";
import { createTestServicesDashboard, type TestServicesDashboard } from "../test-support/test-services-dashboard.ts";
import { explainError } from "./error-explanations.ts";
import { DOWNLOAD_CHUNK_BYTES } from "./filing-client.ts";
import type { StandInDocument } from "./stand-in-filing.ts";

function filing(index: number, overrides: Partial<Filing> = {}): Filing {
  const created = new Date(Date.UTC(2026, 10, 1, 9, 30) - index * 60_000).toISOString();
  return {
    filing_id: `fil_${String(index).padStart(4, "0")}`,
    filing_type: "ct600",
    company_number: "01234567",
    company_name: "Quiet Holdings Ltd",
    period: { start: "2025-01-01", end: "2025-12-31" },
    status: "accepted",
    period_split: false,
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}

describe("the Filings pages (stand-in filing service on filing.rpc)", () => {
  let dash: TestServicesDashboard<{ filings: true }>;
  beforeAll(async () => {
    dash = await createTestServicesDashboard("filings", { filings: true });
  });
  afterAll(async () => {
    await dash?.close();
  });

  /** A signed-up agency with one live key (and a test key), its filings made with the live key. */
  async function agencyWithFilings(
    filings: Filing[],
    documents: Record<string, StandInDocument[]> = {},
    history: Record<string, FilingStatusChange[]> = {},
  ) {
    const { agent, email } = await signedUpAgent(dash.app, "Filing Ltd");
    const { accountId } = await dash.base.db.prisma.user.findUniqueOrThrow({ where: { email } });
    const key = (id: string, mode: "live" | "test") => ({
      account_id: accountId,
      key_id: id,
      mode,
      name: `${mode} key`,
      prefix: `dk_${mode}_${id.slice(4, 12)}`,
      created_at: new Date().toISOString(),
      last_used_at: null,
      revoked_at: null,
    });
    const liveKey = `key_live_${accountId}`;
    dash.base.gateway.keys.set(liveKey, key(liveKey, "live"));
    dash.base.gateway.keys.set(`key_test_${accountId}`, key(`key_test_${accountId}`, "test"));
    dash.filing.add(accountId, liveKey, filings, documents, history);
    return { agent, accountId, liveKey };
  }

  it("lists the account's live filings with a caption, plain-word statuses, a Filings nav link, CSP and no inline script", async () => {
    const { agent, accountId } = await agencyWithFilings([
      filing(0, { status: "rejected", filing_type: "accounts", company_name: "Dormant & Sons" }),
      filing(1, { status: "submitted" }),
    ]);
    const before = dash.filing.requests.length;
    const response = await agent.get("/filings");
    expect(response.status).toBe(200);
    expect(response.text.match(/<h1>/g)).toHaveLength(1);
    expect(response.text).toContain("<h1>Filings</h1>");
    expect(response.text).toContain('<a href="/filings" aria-current="page">Filings</a>');
    expect(response.text).toContain("<caption>Live filings of every key, newest first: 1 to 2 of 2</caption>");
    expect(response.text).toContain('<a href="/filings/fil_0000">fil_0000</a>');
    expect(response.text).toContain("<td>Accounts</td><td>01234567 Dormant &amp; Sons</td>");
    expect(response.text).toContain("<td>Rejected by the authority</td>");
    expect(response.text).toContain("<td>Sent, waiting for the authority</td>");
    expect(response.text).toContain('<label for="filter-status">Status</label>');
    expect(response.text).toContain('<label for="filter-type">Type</label>');
    expect(response.text).toContain('<label for="filter-company">Company number</label>');
    expect(response.text).toContain('<label for="filter-reference">Client reference</label>');
    expect(response.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(response.text).not.toMatch(/\son[a-z]+=/);
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
    const asked = dash.filing.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.type).toBe("filing.account_list");
    expect(asked[0]?.reader).toMatchObject({ account_id: accountId, request_id: expect.stringMatching(/^dash_/) });
    expect(response.text).toContain(
      '<nav class="tabs" aria-label="Live or sandbox filings"><ul class="tab-list"><li><a href="/filings" aria-current="page">Live filings</a></li><li><a href="/filings/sandbox">Sandbox (test keys)</a></li></ul></nav>',
    );
    expect(response.text).not.toContain("filter-key");
  });

  it("passes the filters through as filing.account_list criteria, and pages 25 at a time keeping them", async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      filing(i, { status: "accepted", client_reference: "REF-1", company_number: "SC123456", filing_type: "accounts" }),
    );
    const { agent } = await agencyWithFilings([...many, filing(99, { status: "error" })]);
    const before = dash.filing.requests.length;
    const query = "status=accepted&type=accounts&company_number=sc123456&client_reference=REF-1";
    const first = await agent.get(`/filings?${query}`);
    expect(first.status).toBe(200);
    const asked = dash.filing.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect((asked[0]?.payload as { criteria: unknown } | undefined)?.criteria).toEqual({
      status: "accepted",
      type: "accounts",
      company_number: "SC123456",
      client_reference: "REF-1",
      limit: 25,
      offset: 0,
    });
    expect(first.text).toContain("1 to 25 of 60");
    const keep = "status=accepted&amp;type=accounts&amp;company_number=sc123456&amp;client_reference=REF-1";
    expect(first.text).toContain(`<a href="/filings?${keep}&amp;page=2" rel="next">Older</a>`);
    expect(first.text).not.toContain("Newer");
    expect(first.text).toContain('<option value="accepted" selected>');
    expect(first.text).toContain('<option value="accounts" selected>');
    const second = await agent.get(`/filings?${query}&page=2`);
    expect(second.text).toContain("26 to 50 of 60");
    expect(second.text).toContain(`<a href="/filings?${keep}" rel="prev">Newer</a>`);
    expect(second.text).toContain(`<a href="/filings?${keep}&amp;page=3" rel="next">Older</a>`);
    const lastAsked = dash.filing.requests.at(-1)?.payload as { criteria: { offset: number } } | undefined;
    expect(lastAsked?.criteria.offset).toBe(25);
  });

  it("shows an empty state, and refuses an impossible filter without asking", async () => {
    const { agent } = await agencyWithFilings([]);
    const empty = await agent.get("/filings");
    expect(empty.text).toContain('<p id="filings-empty">No filings yet');
    const before = dash.filing.requests.length;
    const bad = await agent.get("/filings?status=lost");
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('role="alert"');
    expect(dash.filing.requests.length).toBe(before);
    expect(empty.text).toContain('Create a live key on <a href="/api-access">API access</a>');
  });

  it("shows a filing with its parts and its error in plain words", async () => {
    const { agent } = await agencyWithFilings([
      filing(0, {
        status: "error",
        period: { start: "2024-01-01", end: "2025-06-30" },
        period_split: true,
        parts: [
          { part_number: 1, period: { start: "2024-01-01", end: "2024-12-31" }, tax_status: "accepted" },
          { part_number: 2, period: { start: "2025-01-01", end: "2025-06-30" }, tax_status: "error" },
        ],
        error: { code: "CREDENTIALS_INVALID", message: "Authentication failure" },
      }),
    ]);
    const response = await agent.get("/filings/fil_0000");
    expect(response.status).toBe(200);
    expect(response.text.match(/<h1>/g)).toHaveLength(1);
    expect(response.text).toContain("<h1>CT600 for Quiet Holdings Ltd (01234567)</h1>");
    expect(response.text).toContain('<dd id="status">Could not be completed</dd>');
    expect(response.text).toContain("<td>2</td><td>2025-01-01 to 2025-06-30</td><td>Could not be completed</td>");
    expect(response.text).toContain(`<p id="error-explanation">${explainError("CREDENTIALS_INVALID")}</p>`);
    expect(explainError("CREDENTIALS_INVALID")).toContain("Government Gateway credentials");
    expect(response.text).toContain("<code>CREDENTIALS_INVALID</code>");
    expect(response.text).toContain("Authentication failure");
    expect(response.text).not.toMatch(/document|sandbox/i);
  });

  it("answers the same 404 for another account's filing and an unknown id", async () => {
    const owner = await agencyWithFilings([filing(0, { filing_id: "fil_theirs" })]);
    expect((await owner.agent.get("/filings/fil_theirs")).status).toBe(200);
    const other = await agencyWithFilings([]);
    const theirs = await other.agent.get("/filings/fil_theirs");
    const unknown = await other.agent.get("/filings/fil_nobody");
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.text).toBe(unknown.text);
    expect(theirs.text).not.toContain("fil_theirs");
    const asked = dash.filing.requests.filter(
      (r) => r.type === "filing.account_get" && (r.payload as { filing_id?: string }).filing_id === "fil_theirs",
    );
    expect(asked.map((r) => r.reader.account_id)).toEqual([owner.accountId, other.accountId]);
  });

  it("lists every live key's filings of the account, newest first, and never another account's", async () => {
    const { agent, accountId } = await agencyWithFilings([
      filing(0, { filing_id: "fil_key1_new" }),
      filing(2, { filing_id: "fil_key1_old" }),
    ]);
    const secondKey = `key_live2_${accountId}`;
    dash.filing.add(accountId, secondKey, [filing(1, { filing_id: "fil_key2_mid", company_name: "Second Key Ltd" })]);
    const stranger = await agencyWithFilings([filing(0, { filing_id: "fil_stranger" })]);
    const response = await agent.get("/filings");
    expect(response.status).toBe(200);
    expect(response.text).toContain("1 to 3 of 3</caption>");
    const shown = [...response.text.matchAll(/<a href="\/filings\/(fil_[a-z0-9_]+)">/g)].map((m) => m[1]);
    expect(shown).toEqual(["fil_key1_new", "fil_key2_mid", "fil_key1_old"]);
    expect(response.text).not.toContain("fil_stranger");
    expect((await agent.get("/filings/fil_key2_mid")).status).toBe(200);
    expect((await stranger.agent.get("/filings")).text).not.toContain("fil_key");
    expect((await stranger.agent.get("/filings/fil_key2_mid")).status).toBe(404);
  });

  /** A status change `seconds` after 09:30 on 2026-11-01. */
  const change = (
    seconds: number,
    field: FilingStatusChange["field"],
    from: string | null,
    to: string,
    part?: 1 | 2,
  ): FilingStatusChange => ({
    field,
    ...(part === undefined ? {} : { part_number: part }),
    from_status: from,
    to_status: to,
    occurred_at: new Date(Date.UTC(2026, 10, 1, 9, 30, seconds)).toISOString(),
  });
  const row = (seconds: number, what: string, from: string, to: string) => {
    const at = new Date(Date.UTC(2026, 10, 1, 9, 30, seconds)).toISOString();
    return `<tr><td><time datetime="${at}">${at.slice(0, 19).replace("T", " ")} UTC</time></td><td>${what}</td><td>${from}</td><td>${to}</td></tr>`;
  };
  /** The rows of the Status history table, in page order. */
  const historyRows = (text: string) => {
    const table = /<table id="history">([\s\S]*?)<\/table>/.exec(text)?.[1] ?? "";
    return [...table.matchAll(/<tr><td>[\s\S]*?<\/tr>/g)].map((m) => m[0]);
  };

  it("shows a filing's status history oldest first in plain words, each CT600 part by its number", async () => {
    const parts = [
      { part_number: 1, period: { start: "2024-01-01", end: "2024-12-31" }, tax_status: "accepted" as const },
      { part_number: 2, period: { start: "2025-01-01", end: "2025-06-30" }, tax_status: "accepted" as const },
    ];
    const { agent, accountId } = await agencyWithFilings(
      [filing(0, { filing_id: "fil_history", period_split: true, parts })],
      {},
      {
        fil_history: [
          change(0, "status", null, "pending"),
          change(0, "tax_status", null, "pending", 1),
          change(0, "tax_status", null, "pending", 2),
          change(2, "tax_status", "pending", "submitted", 1),
          change(3, "tax_status", "pending", "submitted", 2),
          change(3, "status", "pending", "submitted"),
          change(40, "tax_status", "submitted", "polling", 2),
          change(41, "tax_status", "submitted", "accepted", 1),
          change(55, "tax_status", "polling", "accepted", 2),
          change(55, "status", "submitted", "accepted"),
        ],
      },
    );
    const before = dash.filing.requests.length;
    const page = await agent.get("/filings/fil_history");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<section aria-labelledby="history-title"><h2 id="history-title">Status history</h2>');
    expect(page.text).toContain("<caption>Every change of this filing's status, oldest first</caption>");
    expect(page.text).toContain(
      '<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">From</th><th scope="col">To</th></tr></thead>',
    );
    expect(historyRows(page.text)).toEqual([
      row(0, "Filing", "—", "Waiting to be sent"),
      row(0, "CT600 part 1", "—", "Waiting to be sent"),
      row(0, "CT600 part 2", "—", "Waiting to be sent"),
      row(2, "CT600 part 1", "Waiting to be sent", "Sent, waiting for the authority"),
      row(3, "CT600 part 2", "Waiting to be sent", "Sent, waiting for the authority"),
      row(3, "Filing", "Waiting to be sent", "Sent, waiting for the authority"),
      row(40, "CT600 part 2", "Sent, waiting for the authority", "Sent, checking for the authority&#39;s answer"),
      row(41, "CT600 part 1", "Sent, waiting for the authority", "Accepted"),
      row(55, "CT600 part 2", "Sent, checking for the authority&#39;s answer", "Accepted"),
      row(55, "Filing", "Sent, waiting for the authority", "Accepted"),
    ]);
    const asked = dash.filing.requests.slice(before).filter((r) => r.type === "filing.account_history");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.reader).toMatchObject({ account_id: accountId, request_id: expect.stringMatching(/^dash_/) });
    expect(asked[0]?.payload).toMatchObject({ filing_id: "fil_history" });
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it("says what the registry did to accounts, its review codes included, and a single CT600's return without a part", async () => {
    const { agent } = await agencyWithFilings(
      [
        filing(0, { filing_id: "fil_registry", filing_type: "accounts", status: "submitted" }),
        filing(1, { filing_id: "fil_single", status: "rejected" }),
      ],
      {},
      {
        fil_registry: [
          change(0, "status", null, "pending"),
          change(0, "registry_status", null, "pending"),
          change(1, "registry_status", "pending", "submitted"),
          change(1, "status", "pending", "submitted"),
          change(20, "registry_status_code", null, "PENDING"),
          change(30, "registry_status_code", "PENDING", "PARKED"),
        ],
        fil_single: [change(0, "tax_status", "submitted", "rejected", 1), change(0, "status", "submitted", "rejected")],
      },
    );
    expect(historyRows((await agent.get("/filings/fil_registry")).text)).toEqual([
      row(0, "Filing", "—", "Waiting to be sent"),
      row(0, "Registry", "—", "Waiting to be sent"),
      row(1, "Registry", "Waiting to be sent", "Sent, waiting for the authority"),
      row(1, "Filing", "Waiting to be sent", "Sent, waiting for the authority"),
      row(20, "Registry&#39;s review", "—", "Waiting for an examiner"),
      row(30, "Registry&#39;s review", "Waiting for an examiner", "Held by an examiner"),
    ]);
    expect(historyRows((await agent.get("/filings/fil_single")).text)).toEqual([
      row(0, "CT600 return", "Sent, waiting for the authority", "Rejected by the authority"),
      row(0, "Filing", "Sent, waiting for the authority", "Rejected by the authority"),
    ]);
  });

  it("answers the same 404 for another account's filing with a history, and shows none of it", async () => {
    const owner = await agencyWithFilings(
      [filing(0, { filing_id: "fil_their_history" })],
      {},
      {
        fil_their_history: [change(0, "status", null, "pending"), change(9, "status", "pending", "submitted")],
      },
    );
    expect(historyRows((await owner.agent.get("/filings/fil_their_history")).text)).toHaveLength(2);
    const other = await agencyWithFilings([]);
    const theirs = await other.agent.get("/filings/fil_their_history");
    const unknown = await other.agent.get("/filings/fil_nobody");
    expect(theirs.status).toBe(404);
    expect(theirs.text).toBe(unknown.text);
    expect(theirs.text).not.toContain("Status history");
    const asked = dash.filing.requests.filter(
      (r) => r.type === "filing.account_history" && (r.payload as { filing_id?: string }).filing_id === "fil_their_history",
    );
    // The stand-in is asked as each account (and refuses the other one): the page never borrows the owner's answer.
    expect(asked.map((r) => r.reader.account_id)).toEqual([owner.accountId, other.accountId]);
  });

  it("still shows the filing, its documents included, with a note when the history cannot be loaded", async () => {
    const { agent } = await agencyWithFilings([filing(0, { filing_id: "fil_no_history", filing_type: "accounts" })], {
      fil_no_history: [document("accounts_pdf", 1_000)],
    });
    dash.filing.failHistory();
    const page = await agent.get("/filings/fil_no_history");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<dd id="status">Accepted</dd>');
    expect(page.text).toContain('<a href="/filings/fil_no_history/documents/accounts_pdf" download>Accounts PDF</a>');
    expect(page.text).toContain('<h2 id="history-title">Status history</h2>');
    expect(page.text).toContain(
      '<p class="alert" id="history-unavailable">The status history could not be loaded just now; reload the page in a minute.</p>',
    );
    expect(page.text).not.toContain('<table id="history">');
    // The next read answers again: the history is back.
    const again = await agent.get("/filings/fil_no_history");
    expect(again.text).not.toContain("history-unavailable");
    expect(historyRows(again.text)).toEqual([
      row(0, "Filing", "—", "Waiting to be sent"),
      row(0, "Filing", "Waiting to be sent", "Sent, waiting for the authority"),
      row(0, "Filing", "Sent, waiting for the authority", "Accepted"),
    ]);
  });

  const document = (type: StandInDocument["type"], size: number, extra: Partial<StandInDocument> = {}): StandInDocument => ({
    type,
    fileName: `${type}.${type.endsWith("pdf") ? "pdf" : type === "ct600_xml" ? "xml" : "xhtml"}`,
    mediaType: type.endsWith("pdf") ? "application/pdf" : type === "ct600_xml" ? "application/xml" : "application/xhtml+xml",
    content: randomBytes(size),
    generatedAt: "2026-11-01T09:31:00.000Z",
    ...extra,
  });

  /** GETs a download as raw bytes (supertest buffers them). */
  const download = (agent: ReturnType<typeof request.agent>, path: string) =>
    agent
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        let finished = false;
        const finish = (error: Error | null) => {
          if (finished) return;
          finished = true;
          done(error, Buffer.concat(chunks));
        };
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => finish(null));
        res.on("error", (e: Error) => finish(e));
        res.on("aborted", () => finish(new Error("aborted")));
      });

  it("lists an accepted filing's documents as plain-word links, and downloads them byte for byte in slices of at most 1 MiB", async () => {
    const big = document("accounts_pdf", Math.round(2.5 * DOWNLOAD_CHUNK_BYTES), { fileName: "Quiet Holdings – accounts.pdf" });
    const ixbrl = document("ixbrl_accounts", 12_345);
    const { agent, accountId } = await agencyWithFilings([filing(0, { filing_id: "fil_docs", filing_type: "accounts" })], {
      fil_docs: [big, ixbrl],
    });
    const page = await agent.get("/filings/fil_docs");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2 id="documents-title">Documents</h2>');
    expect(page.text).toContain('<a href="/filings/fil_docs/documents/accounts_pdf" download>Accounts PDF</a>');
    expect(page.text).toContain('<a href="/filings/fil_docs/documents/ixbrl_accounts" download>Accounts iXBRL</a>');
    expect(page.text).toContain("(Quiet Holdings – accounts.pdf, 2.5 MB)");
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);

    const before = dash.filing.requests.length;
    const response = await download(agent, "/filings/fil_docs/documents/accounts_pdf");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-length"]).toBe(String(big.content.length));
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="Quiet Holdings _ accounts.pdf"; filename*=UTF-8''${encodeURIComponent("Quiet Holdings – accounts.pdf")}`,
    );
    expect(Buffer.compare(response.body as Buffer, big.content)).toBe(0);
    const slices = dash.filing.requests.slice(before).map((r) => r.payload as { offset: number; length: number; reader: unknown });
    expect(slices.map((r) => r.offset)).toEqual([0, DOWNLOAD_CHUNK_BYTES, 2 * DOWNLOAD_CHUNK_BYTES]);
    for (const r of slices) expect(r.length).toBeLessThanOrEqual(DOWNLOAD_CHUNK_BYTES);
    expect(dash.filing.requests.slice(before).every((r) => r.reader.account_id === accountId)).toBe(true);

    const small = await download(agent, "/filings/fil_docs/documents/ixbrl_accounts");
    expect(small.headers["content-type"]).toBe("application/xhtml+xml");
    expect(Buffer.compare(small.body as Buffer, ixbrl.content)).toBe(0);
  });

  it("links and downloads both parts of a split CT600's documents", async () => {
    const docs = [
      document("ct600_pdf", 2_000, { part: 1, fileName: "ct600-part1.pdf" }),
      document("ct600_pdf", 3_000, { part: 2, fileName: "ct600-part2.pdf" }),
      document("ct600_xml", 4_000, { part: 1, fileName: "ct600-part1.xml" }),
      document("ct600_xml", 5_000, { part: 2, fileName: "ct600-part2.xml" }),
    ];
    const parts = [
      { part_number: 1, period: { start: "2024-01-01", end: "2024-12-31" }, tax_status: "accepted" as const },
      { part_number: 2, period: { start: "2025-01-01", end: "2025-06-30" }, tax_status: "accepted" as const },
    ];
    const { agent } = await agencyWithFilings([filing(0, { filing_id: "fil_split", period_split: true, parts })], { fil_split: docs });
    const page = await agent.get("/filings/fil_split");
    expect(page.text).toContain('<a href="/filings/fil_split/documents/ct600_pdf" download>CT600 PDF (part 1)</a>');
    expect(page.text).toContain('<a href="/filings/fil_split/documents/ct600_pdf?part=2" download>CT600 PDF (part 2)</a>');
    expect(page.text).toContain('<a href="/filings/fil_split/documents/ct600_xml?part=2" download>CT600 XML (part 2)</a>');
    const second = await download(agent, "/filings/fil_split/documents/ct600_pdf?part=2");
    expect(second.headers["content-disposition"]).toMatch(/^attachment; filename="ct600-part2.pdf"/);
    expect(Buffer.compare(second.body as Buffer, docs[1]!.content)).toBe(0);
    const first = await download(agent, "/filings/fil_split/documents/ct600_pdf");
    expect(Buffer.compare(first.body as Buffer, docs[0]!.content)).toBe(0);
  });

  it("answers the same 404 page for another account's document, an unknown filing, type or part, and lists none before acceptance", async () => {
    const owner = await agencyWithFilings([filing(0, { filing_id: "fil_private", filing_type: "accounts" })], {
      fil_private: [document("accounts_pdf", 1_000)],
    });
    expect((await owner.agent.get("/filings/fil_private/documents/accounts_pdf")).status).toBe(200);
    const other = await agencyWithFilings([filing(0, { filing_id: "fil_pending", status: "submitted" })]);
    const theirs = await other.agent.get("/filings/fil_private/documents/accounts_pdf");
    expect(theirs.status).toBe(404);
    expect(theirs.headers["content-type"]).toMatch(/^text\/html/);
    expect(theirs.headers["content-disposition"]).toBeUndefined();
    for (const [who, path] of [
      [other, "/filings/fil_nobody/documents/accounts_pdf"],
      [owner, "/filings/fil_private/documents/accounts_pdf?part=2"],
      [owner, "/filings/fil_private/documents/accounts_pdf?part=x"],
      [owner, "/filings/fil_private/documents/balance_sheet"],
      [other, "/filings/fil_pending/documents/ct600_pdf"],
    ] as const) {
      const response = await who.agent.get(path);
      expect(response.status, path).toBe(404);
      expect(response.text, path).toBe(theirs.text);
    }
    const pending = await other.agent.get("/filings/fil_pending");
    expect(pending.text).not.toMatch(/documents/i);
    expect(dash.filing.requests.some((r) => r.type === "filing.account_list_documents" && r.reader.account_id === other.accountId)).toBe(
      false,
    );
  });

  it("cuts a download short when a later slice is of another stored version, or the service fails mid-way", async () => {
    const big = document("accounts_pdf", DOWNLOAD_CHUNK_BYTES + 10);
    const { agent } = await agencyWithFilings([filing(0, { filing_id: "fil_flaky", filing_type: "accounts" })], { fil_flaky: [big] });
    for (const kind of ["regenerated", "fail"] as const) {
      dash.filing.faultNextDownload({ afterChunks: 1, kind });
      const outcome = await download(agent, "/filings/fil_flaky/documents/accounts_pdf").then(
        (r) => ({ complete: Buffer.compare(r.body as Buffer, big.content) === 0 }),
        (error: Error) => ({ error: error.message }),
      );
      // The connection is cut before Content-Length bytes: the client sees an aborted response, never a short file.
      expect(outcome, kind).toEqual({ error: expect.any(String) });
    }
    const whole = await download(agent, "/filings/fil_flaky/documents/accounts_pdf");
    expect(Buffer.compare(whole.body as Buffer, big.content)).toBe(0);
  });

  it("the sandbox view: a test key's (empty) list, the sandbox table, and a lookup of a sandbox filing id", async () => {
    const { agent } = await agencyWithFilings([]);
    const response = await agent.get("/filings/sandbox");
    expect(response.status).toBe(200);
    expect(response.text.match(/<h1>/g)).toHaveLength(1);
    expect(response.text).toContain("<h1>Sandbox filings</h1>");
    expect(response.text).toContain('<a href="/filings" aria-current="page">Filings</a>');
    expect(response.text).toContain('<a href="/filings/sandbox" aria-current="page">Sandbox (test keys)</a>');
    expect(response.text).toContain("answers 0 filings. Sandbox filings are stateless");
    expect(response.text).toContain('<label for="sandbox-filing-id">Sandbox filing id</label>');
    expect(response.text).toContain("<caption>The sandbox table: company number, outcome and why</caption>");
    expect(response.text).toContain(
      "<tr><td><code>00000002</code></td><td>England/Wales</td><td>Rejected by the authority</td><td>UTR does not match company records</td></tr>",
    );
    expect(response.text).toContain("<td>Any other</td>");
    expect(response.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(response.text).not.toMatch(/\son[a-z]+=/);

    const accepted = await agent.get("/filings/sandbox?filing_id=fil_test_accounts_00000001_0123456789abcdef");
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain('<dd id="sandbox-status">Accepted</dd>');
    expect(accepted.text).toContain("<code>SANDBOX-SUB-0123456789ABCDEF</code>");
    expect(accepted.text).toContain('value="fil_test_accounts_00000001_0123456789abcdef"');

    const rejected = await agent.get("/filings/sandbox?filing_id=%20fil_test_ct600_00000002_0123456789abcdef%20");
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('<dd id="sandbox-status">Rejected by the authority</dd>');
    expect(rejected.text).toContain(`<p id="sandbox-error-explanation">${explainError("TAX_UTR_MISMATCH")}</p>`);

    for (const bad of ["fil_0000", "fil_test_ct600_00000001_XYZ", "<script>alert(1)</script>"]) {
      const refused = await agent.get(`/filings/sandbox?filing_id=${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(422);
      expect(refused.text).toContain('<p class="error" id="sandbox-filing-id-error">That is not a sandbox filing id.');
      expect(refused.text).toContain('aria-invalid="true"');
      expect(refused.text).not.toContain("sandbox-status");
      expect(refused.text).not.toContain("<script>alert");
    }
  });

  it("sends the signed-out to /signin", async () => {
    for (const path of ["/filings", "/filings/fil_0000", "/filings/sandbox", "/filings/fil_0000/documents/ct600_pdf"]) {
      const response = await request(dash.app).get(path);
      expect(response.status).toBe(303);
      expect(response.headers.location).toMatch(/^\/signin/);
    }
  });

  it("serves a page of 25 (from 1,000) quickly: the dashboard's own server time", async () => {
    const { agent } = await agencyWithFilings(Array.from({ length: 1000 }, (_, i) => filing(i)));
    await agent.get("/filings");
    const times: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const started = performance.now();
      const response = await agent.get(`/filings?page=${i + 1}`);
      times.push(performance.now() - started);
      expect(response.text).toContain(`of 1000</caption>`);
    }
    times.sort((a, b) => a - b);
    const median = times[5] ?? 0;
    console.log(`GET /filings (25 of 1,000, stand-in filing.account_list over the bus): median ${median.toFixed(1)} ms`);
    expect(median).toBeLessThan(100);
  });
});
