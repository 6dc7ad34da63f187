import type { Filing } from "@dormant/contracts";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedUpAgent } from "../test-support/test-dashboard.ts";
import { explainError } from "./error-explanations.ts";
import { createTestFilingsDashboard, type TestFilingsDashboard } from "./test-filings-dashboard.ts";

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
  let dash: TestFilingsDashboard;
  beforeAll(async () => {
    dash = await createTestFilingsDashboard("filings");
  });
  afterAll(async () => {
    await dash?.close();
  });

  /** A signed-up agency with one live key (and a test key, never asked for), its filings on the live key. */
  async function agencyWithFilings(filings: Filing[]) {
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
    dash.filing.filings.set(liveKey, filings);
    return { agent, accountId, liveKey };
  }

  it("lists the live filings with a caption, plain-word statuses, a Filings nav link, CSP and no inline script", async () => {
    const { agent, accountId, liveKey } = await agencyWithFilings([
      filing(0, { status: "rejected", filing_type: "accounts", company_name: "Dormant & Sons" }),
      filing(1, { status: "submitted" }),
    ]);
    const before = dash.filing.requests.length;
    const response = await agent.get("/filings");
    expect(response.status).toBe(200);
    expect(response.text.match(/<h1>/g)).toHaveLength(1);
    expect(response.text).toContain("<h1>Filings</h1>");
    expect(response.text).toContain('<a href="/filings" aria-current="page">Filings</a>');
    expect(response.text).toContain("<caption>Live filings, newest first: 1 to 2 of 2</caption>");
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
    expect(asked[0]?.type).toBe("filing.list");
    expect(asked[0]?.caller).toMatchObject({ account_id: accountId, key_id: liveKey, mode: "live" });
  });

  it("passes the filters through as filing.list criteria, and pages 25 at a time keeping them", async () => {
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
    const noKeys = await signedUpAgent(dash.app, "Keyless Ltd");
    const none = await noKeys.agent.get("/filings");
    expect(none.text).toContain("Create a live key");
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
    const forged = await other.agent.get(`/filings/fil_theirs?key=${encodeURIComponent(owner.liveKey)}`);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(forged.status).toBe(404);
    expect(theirs.text).toBe(unknown.text);
    expect(theirs.text).not.toContain("fil_theirs");
    for (const r of dash.filing.requests) if (r.caller.key_id === owner.liveKey) expect(r.caller.account_id).toBe(owner.accountId);
  });

  it("sends the signed-out to /signin", async () => {
    for (const path of ["/filings", "/filings/fil_0000"]) {
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
    console.log(`GET /filings (25 of 1,000, stand-in filing.list + gateway.list_keys over the bus): median ${median.toFixed(1)} ms`);
    expect(median).toBeLessThan(500);
  });
});
