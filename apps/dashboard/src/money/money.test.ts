import type { LedgerLine } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfOf, signedUpAgent } from "../test-support/test-dashboard.ts";
import {
  createTestServicesDashboard,
  TEST_CHECKOUT_ORIGIN,
  TEST_PUBLIC_URL,
  type TestServicesDashboard,
} from "../test-support/test-services-dashboard.ts";

function line(index: number, overrides: Partial<LedgerLine> = {}): LedgerLine {
  return {
    entry_id: `le_${index}`,
    kind: "credit",
    balance_delta_pence: 1000 + index,
    held_delta_pence: 0,
    filing_id: null,
    top_up: { source: "payment", payment_id: `pay_${index}` },
    note: null,
    created_at: new Date(Date.UTC(2026, 10, 1, 9, 30) - index * 60_000).toISOString(),
    ...overrides,
  };
}

describe("the Money page (stand-in billing on billing.rpc)", () => {
  let dash: TestServicesDashboard<{ money: true }>;
  beforeAll(async () => {
    dash = await createTestServicesDashboard("money", { money: true });
  });
  afterAll(async () => {
    await dash?.close();
  });

  async function signedUpWithBalance(balance = { balance_pence: 123_456, held_pence: 2_500, available_pence: 120_956 }) {
    const agent = await signedUpAgent(dash.app, "Money Ltd");
    const user = await dash.base.db.prisma.user.findUniqueOrThrow({ where: { email: agent.email } });
    dash.billing.balances.set(user.accountId, { account_id: user.accountId, ...balance });
    return { ...agent, accountId: user.accountId };
  }

  it("shows balance, held and available in pounds, the ledger in plain words, and a Money nav link", async () => {
    const { agent, accountId } = await signedUpWithBalance();
    dash.billing.ledgers.set(accountId, [
      line(0, { kind: "hold", balance_delta_pence: 0, held_delta_pence: 2_500, filing_id: "fil_abc123", top_up: null }),
      line(1, { kind: "capture", balance_delta_pence: -1_300, held_delta_pence: -1_300, filing_id: "fil_xyz", top_up: null }),
      line(2, { kind: "release", balance_delta_pence: 0, held_delta_pence: -900, filing_id: "fil_rel", top_up: null }),
      line(3, { balance_delta_pence: 50_000 }),
    ]);
    const response = await agent.get("/money");
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.text.match(/<h1>/g)).toHaveLength(1);
    expect(response.text).toContain("<h1>Money</h1>");
    expect(response.text).toContain('<dd id="balance">£1,234.56</dd>');
    expect(response.text).toContain('<dd id="held">£25.00</dd>');
    expect(response.text).toContain('<dd id="available">£1,209.56</dd>');
    expect(response.text).toContain('<a href="/money" aria-current="page">Money</a>');
    expect(response.text).toMatch(
      /<a href="\/account">Account<\/a><\/li><li><a href="\/api-access">API access<\/a><\/li><li><a href="\/money"/,
    );
    expect(response.text).toMatch(/<caption>Ledger, newest first: entries 1 to 4 of 4<\/caption>/);
    expect(response.text).toContain('<th scope="col">Date</th><th scope="col">What</th><th scope="col">Amount</th>');
    expect(response.text).toContain("<td>Fee held for filing fil_abc123</td><td>£25.00</td>");
    expect(response.text).toContain("<td>Fee taken for filing fil_xyz</td><td>£13.00</td>");
    expect(response.text).toContain("<td>Fee released for filing fil_rel</td><td>£9.00</td>");
    expect(response.text).toContain("<td>Top-up</td><td>£500.00</td>");
    expect(response.text).toContain('<time datetime="2026-11-01T09:30:00.000Z">2026-11-01 09:30 UTC</time>');
    expect(response.text).not.toContain("Newer");
    expect(response.text).not.toContain("Older");
  });

  it("pages the ledger 25 at a time with Newer and Older links, asking only for the signed-in account", async () => {
    const other = await signedUpWithBalance();
    dash.billing.ledgers.set(other.accountId, [line(0, { balance_delta_pence: 777_700, filing_id: null })]);
    const { agent, accountId } = await signedUpWithBalance();
    dash.billing.ledgers.set(
      accountId,
      Array.from({ length: 60 }, (_, i) => line(i, { balance_delta_pence: 500 + i })),
    );
    const before = dash.billing.requests.length;
    const first = await agent.get("/money");
    expect(first.text).toContain("entries 1 to 25 of 60");
    expect(first.text).toContain('<a href="/money?page=2" rel="next">Older</a>');
    expect(first.text).not.toContain("Newer");
    expect(first.text).toContain("<td>£5.00</td>");
    expect(first.text).not.toContain("£7,777.00");

    const second = await agent.get("/money?page=2");
    expect(second.text).toContain("entries 26 to 50 of 60");
    expect(second.text).toContain('<a href="/money?page=1" rel="prev">Newer</a>');
    expect(second.text).toContain('<a href="/money?page=3" rel="next">Older</a>');
    expect(second.text).toContain("<td>£5.25</td>");

    const third = await agent.get("/money?page=3");
    expect(third.text).toContain("entries 51 to 60 of 60");
    expect(third.text).toContain("Newer");
    expect(third.text).not.toContain("Older");

    const beyond = await agent.get("/money?page=9");
    expect(beyond.text).toContain("There are no older entries.");
    expect(beyond.text).toContain('<a href="/money?page=8" rel="prev">Newer</a>');

    const junk = await agent.get("/money?page=-1");
    expect(junk.text).toContain("entries 1 to 25 of 60");

    const asked = dash.billing.requests.slice(before);
    expect(asked.length).toBe(10);
    for (const request of asked) expect((request.payload as { account_id: string }).account_id).toBe(accountId);
    expect(
      asked.filter((r) => r.type === "billing.list_ledger").map((r) => (r.payload as { offset: number; limit: number }).offset),
    ).toEqual([0, 25, 50, 200, 0]);
    expect(asked.every((r) => r.type !== "billing.list_ledger" || (r.payload as { limit: number }).limit === 25)).toBe(true);
  });

  it("shows the empty state of a new account", async () => {
    const { agent } = await signedUpWithBalance({ balance_pence: 0, held_pence: 0, available_pence: 0 });
    const response = await agent.get("/money");
    expect(response.text).toContain('<dd id="balance">£0.00</dd>');
    expect(response.text).toContain("No entries yet: top-ups and filing fees will be listed here.");
    expect(response.text).not.toContain("<table>");
  });

  it("is for signed-in agents only", async () => {
    const { default: request } = await import("supertest");
    const response = await request(dash.app).get("/money");
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe("/signin");
  });

  it("top-up: the labelled form, then billing.create_checkout in exact pence and a 303 to the checkout", async () => {
    const { agent, accountId } = await signedUpWithBalance();
    const form = await agent.get("/money");
    expect(form.text).toContain('<label for="amount">Amount (£)</label>');
    expect(form.text).toMatch(/<input id="amount" name="amount" type="text" inputmode="decimal"[^>]*aria-describedby="amount-hint"/);
    expect(form.text).toContain('<button type="submit">Top up</button>');
    const response = await agent
      .post("/money/top-up")
      .type("form")
      .send({ _csrf: csrfOf(form.text), amount: "12.34" });
    expect(response.status).toBe(303);
    const checkout = dash.billing.checkouts.at(-1)!;
    expect(checkout).toEqual({
      account_id: accountId,
      amount_pence: 1234,
      success_url: `${TEST_PUBLIC_URL}/money?top_up=success`,
      cancel_url: `${TEST_PUBLIC_URL}/money?top_up=cancelled`,
    });
    expect(response.headers.location).toMatch(new RegExp(`^${TEST_CHECKOUT_ORIGIN}/payment-provider/v1/checkout/cs_[0-9a-f]+$`));
  });

  it.each([
    ["5", 500],
    ["5.00", 500],
    ["10000", 1_000_000],
  ])("accepts %j as %i pence", async (amount, pence) => {
    const { agent } = await signedUpWithBalance();
    const form = await agent.get("/money");
    const response = await agent
      .post("/money/top-up")
      .type("form")
      .send({ _csrf: csrfOf(form.text), amount });
    expect(response.status).toBe(303);
    expect(dash.billing.checkouts.at(-1)?.amount_pence).toBe(pence);
  });

  it.each([
    ["4.99", "Enter an amount from £5.00 to £10,000.00."],
    ["10000.01", "Enter an amount from £5.00 to £10,000.00."],
    ["1e3", "at most 2 decimal places"],
    ["12.345", "at most 2 decimal places"],
    ["", "Enter an amount in pounds"],
  ])("refuses %j with the error linked to the field", async (amount, message) => {
    const { agent } = await signedUpWithBalance();
    const form = await agent.get("/money");
    const checkouts = dash.billing.checkouts.length;
    const response = await agent
      .post("/money/top-up")
      .type("form")
      .send({ _csrf: csrfOf(form.text), amount });
    expect(response.status).toBe(422);
    expect(response.text).toContain('<p class="error" id="amount-error">');
    expect(response.text).toContain(message);
    expect(response.text).toMatch(/id="amount"[^>]*aria-describedby="amount-hint amount-error" aria-invalid="true"/);
    expect(response.text).toContain(`value="${amount}"`);
    expect(dash.billing.checkouts.length).toBe(checkouts);
  });

  it("refuses a top-up without or with a wrong CSRF token, starting nothing", async () => {
    const { agent } = await signedUpWithBalance();
    const checkouts = dash.billing.checkouts.length;
    const missing = await agent.post("/money/top-up").type("form").send({ amount: "50" });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain("This form has expired");
    const wrong = await agent
      .post("/money/top-up")
      .type("form")
      .send({ _csrf: "x".repeat(43), amount: "50" });
    expect(wrong.status).toBe(403);
    expect(dash.billing.checkouts.length).toBe(checkouts);
  });

  it("says thank you after paying and that nothing was charged after cancelling", async () => {
    const { agent } = await signedUpWithBalance();
    const success = await agent.get("/money?top_up=success");
    expect(success.text).toContain(
      '<p class="warning" role="status" id="top-up-status">Thank you: your payment is being confirmed; the balance updates when the payment provider confirms it.</p>',
    );
    const cancelled = await agent.get("/money?top_up=cancelled");
    expect(cancelled.text).toContain("Top-up cancelled; nothing was charged.");
    expect(cancelled.text).not.toContain("Thank you");
    const other = await agent.get("/money?top_up=<script>");
    expect(other.text).not.toContain("top-up-status");
  });

  it("sends the payment provider's origin in form-action, and still no inline script", async () => {
    const { agent } = await signedUpWithBalance();
    const response = await agent.get("/money");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain(`form-action 'self' ${TEST_CHECKOUT_ORIGIN};`);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(response.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it("answers the 503 page when billing does not answer, starting nothing", async () => {
    const { agent } = await signedUpWithBalance();
    const form = await agent.get("/money");
    await dash.billing.pause();
    try {
      const page = await agent.get("/money");
      expect(page.status).toBe(503);
      expect(page.text).toContain("The platform is not answering");
      const topUp = await agent
        .post("/money/top-up")
        .type("form")
        .send({ _csrf: csrfOf(form.text), amount: "50" });
      expect(topUp.status).toBe(503);
      expect(topUp.headers.location).toBeUndefined();
    } finally {
      await dash.billing.resume();
    }
  }, 30_000);
});
