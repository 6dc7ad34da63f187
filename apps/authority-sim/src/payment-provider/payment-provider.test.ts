import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../env.ts";
import type { SimServer } from "../server.ts";
import { startTestSim } from "../testing/test-sim.ts";
import { DEVELOPMENT_PROVIDER_API_KEY, DEVELOPMENT_WEBHOOK_SECRET } from "./config.ts";

const KEY = "stand-in-test-api-key-0123456789";
const SECRET = "stand-in-test-webhook-secret-0123456789";

interface Received {
  body: string;
  signature: string | undefined;
}

// The payment provider's local stand-in over real HTTP: its API, its checkout page, and the signed
// payment webhook it sends (received here by a plain HTTP server playing billing).
describe("payment provider stand-in", () => {
  let sim: SimServer;
  let billing: Server;
  const received: Received[] = [];
  let answer = 200;

  beforeAll(async () => {
    billing = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        received.push({ body, signature: req.headers["x-payment-signature"] as string | undefined });
        res.writeHead(answer, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => billing.listen(0, "127.0.0.1", resolve));
    const port = (billing.address() as AddressInfo).port;
    sim = await startTestSim({
      paymentProvider: {
        apiKey: KEY,
        webhookUrl: `http://127.0.0.1:${port}/webhooks/payments`,
        webhookSecret: SECRET,
        webhookTimeoutMs: 2000,
        maxSessions: 100,
      },
    });
  });
  afterAll(async () => {
    await sim?.close(0);
    await new Promise((resolve) => billing?.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    answer = 200;
  });

  const api = `/payment-provider/v1/checkout_sessions`;
  const create = (body: unknown, key: string | null = KEY) =>
    fetch(`${sim.url}${api}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
      body: JSON.stringify(body),
    });
  const session = {
    account_id: "acc_standIn1",
    amount: "1234.56",
    currency: "GBP",
    success_url: "http://localhost:3200/billing/top-up/done",
    cancel_url: "http://localhost:3200/billing",
  };
  const newSession = async () => (await (await create(session)).json()) as { id: string; url: string };

  it("is on by default outside production, off in production, and takes billing's settings", () => {
    expect(loadConfig({}).paymentProvider).toEqual({
      apiKey: DEVELOPMENT_PROVIDER_API_KEY,
      webhookUrl: "http://127.0.0.1:4400/webhooks/payments",
      webhookSecret: DEVELOPMENT_WEBHOOK_SECRET,
      webhookTimeoutMs: 5000,
      maxSessions: 10_000,
    });
    expect(loadConfig({ NODE_ENV: "production" }).paymentProvider).toBeNull();
    expect(loadConfig({ SIM_PAYMENT_PROVIDER: "off" }).paymentProvider).toBeNull();
    expect(
      loadConfig({ BILLING_PORT: "4999", PAYMENT_WEBHOOK_SECRET: SECRET, PAYMENT_PROVIDER_API_KEY: KEY }).paymentProvider,
    ).toMatchObject({ apiKey: KEY, webhookSecret: SECRET, webhookUrl: "http://127.0.0.1:4999/webhooks/payments" });
    // On explicitly in production-mode containers (docker-compose), with the browsers' origin.
    expect(
      loadConfig({ NODE_ENV: "production", SIM_PAYMENT_PROVIDER: "on", SIM_PAYMENT_CHECKOUT_PUBLIC_URL: "http://localhost:4100/" })
        .paymentProvider,
    ).toMatchObject({ checkoutPublicUrl: "http://localhost:4100" });
  });

  it("creates sessions only with the API key and a valid body", async () => {
    expect((await create(session, null)).status).toBe(401);
    expect((await create(session, "a-wrong-key-a-wrong-key")).status).toBe(401);
    const invalid = await create({ ...session, amount: "12.345", currency: "EUR", success_url: "javascript:alert(1)" });
    expect(invalid.status).toBe(400);
    const { error } = (await invalid.json()) as { error: { details: Array<{ field: string }> } };
    expect(error.details.map((d) => d.field).sort()).toEqual(["amount", "currency", "success_url"]);

    const created = await create(session);
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, string>;
    expect(body).toEqual({
      id: expect.stringMatching(/^cs_[A-Za-z0-9]+$/),
      url: `${sim.url}/payment-provider/checkout/${body.id}`,
      ...session,
      status: "open",
    });
  });

  it("serves an accessible checkout page with a strict CSP and no script", async () => {
    const { url } = await newSession();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' http://localhost:3200; base-uri 'none'; frame-ancestors 'none'",
    );
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain("Local stand-in of the payment provider");
    expect(html).toContain('<label for="card">');
    expect(html).toMatch(/<button type="submit">Pay £1,234\.56<\/button>/);
    expect(html).toMatch(/<a href="\/payment-provider\/checkout\/cs_\w+\/cancel">Cancel<\/a>/);
    expect(html).not.toMatch(/<script|\sstyle="|\son\w+="/);
    const css = await fetch(`${sim.url}/payment-provider/assets/checkout.css`);
    expect([css.status, css.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
    expect((await fetch(`${sim.url}/payment-provider/assets/favicon.svg`)).status).toBe(200);
    expect(html).toMatch(/<header>\s*<p class="stand-in">/);
    const unknown = await fetch(`${sim.url}/payment-provider/checkout/cs_nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("Pay sends one signed payment webhook, then redirects to success_url; paying again sends none", async () => {
    const { id, url } = await newSession();
    const pay = () => fetch(`${url}/pay`, { method: "POST", redirect: "manual" });
    const first = await pay();
    expect([first.status, first.headers.get("location")]).toEqual([303, session.success_url]);
    expect(received).toHaveLength(1);
    const [{ body, signature }] = received as [Received];
    expect(JSON.parse(body)).toEqual({
      payment_id: expect.stringMatching(/^pay_[A-Za-z0-9]+$/),
      account_id: session.account_id,
      amount: "1234.56",
      currency: "GBP",
      status: "succeeded",
      checkout_id: id,
    });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature ?? "") ?? [];
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(5);
    expect(v1).toBe(createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex"));

    const second = await pay();
    expect([second.status, second.headers.get("location")]).toEqual([303, session.success_url]);
    expect(received).toHaveLength(1);
    expect(await (await fetch(url)).text()).toContain("Payment received");
  });

  it("a webhook billing refuses is shown as not confirmed; Pay again resends the same payment", async () => {
    const { url } = await newSession();
    answer = 503;
    const failed = await fetch(`${url}/pay`, { method: "POST", redirect: "manual" });
    expect(failed.status).toBe(502);
    expect(await failed.text()).toContain("Payment not confirmed");
    answer = 200;
    const retried = await fetch(`${url}/pay`, { method: "POST", redirect: "manual" });
    expect(retried.status).toBe(303);
    const ids = received.map((r) => (JSON.parse(r.body) as { payment_id: string }).payment_id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
  });

  it("refunds and disputes a paid payment through its API: each a signed webhook, never more in all than the payment", async () => {
    const { url } = await newSession();
    await fetch(`${url}/pay`, { method: "POST", redirect: "manual" });
    const paymentId = (JSON.parse(received[0]?.body ?? "{}") as { payment_id: string }).payment_id;
    const reverse = (kind: "refunds" | "disputes", body: unknown, key: string | null = KEY) =>
      fetch(`${sim.url}/payment-provider/v1/payments/${paymentId}/${kind}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
        body: JSON.stringify(body),
      });

    expect((await reverse("refunds", { amount: "34.56" }, null)).status).toBe(401);
    const refund = await reverse("refunds", { amount: "34.56" });
    expect(refund.status).toBe(201);
    const refunded = (await refund.json()) as { id: string };
    expect(refunded).toMatchObject({ id: expect.stringMatching(/^re_/), payment_id: paymentId, amount: "34.56", billing_notified: true });
    const notification = received[1] as Received;
    expect(JSON.parse(notification.body)).toMatchObject({
      payment_id: paymentId,
      account_id: session.account_id,
      amount: "34.56",
      currency: "GBP",
      status: "refunded",
      refund_id: refunded.id,
    });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(notification.signature ?? "") ?? [];
    expect(v1).toBe(createHmac("sha256", SECRET).update(`${t}.${notification.body}`).digest("hex"));

    // More than is left is refused; a dispute defaults to what is left (1,200.00).
    expect((await reverse("disputes", { amount: "1200.01" })).status).toBe(409);
    const dispute = await reverse("disputes", {});
    expect(dispute.status).toBe(201);
    expect(JSON.parse((received[2] as Received).body)).toMatchObject({
      status: "disputed",
      amount: "1200.00",
      dispute_id: expect.stringMatching(/^dp_/),
    });
    // Sent again by id: the same dispute, nothing more taken.
    const again = await reverse("disputes", { id: ((await dispute.json()) as { id: string }).id });
    expect(again.status).toBe(201);
    expect(JSON.parse((received[3] as Received).body)).toEqual(JSON.parse((received[2] as Received).body));
    expect((await reverse("refunds", { amount: "0.01" })).status).toBe(409);
    expect(
      (
        await fetch(`${sim.url}/payment-provider/v1/payments/pay_unknown/refunds`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}` },
        })
      ).status,
    ).toBe(404);
  });

  it("Cancel returns to cancel_url and the session can no longer be paid", async () => {
    const { url } = await newSession();
    const cancelled = await fetch(`${url}/cancel`, { redirect: "manual" });
    expect([cancelled.status, cancelled.headers.get("location")]).toEqual([303, session.cancel_url]);
    const pay = await fetch(`${url}/pay`, { method: "POST", redirect: "manual" });
    expect(pay.status).toBe(409);
    expect(await pay.text()).toContain("Checkout cancelled");
    expect(received).toHaveLength(0);
  });

  it("names the checkout page at its public URL for browsers when one is set", async () => {
    const behindCompose = await startTestSim({
      paymentProvider: {
        apiKey: KEY,
        webhookUrl: "http://127.0.0.1:9/x",
        webhookSecret: SECRET,
        webhookTimeoutMs: 500,
        maxSessions: 10,
        checkoutPublicUrl: "http://localhost:4100",
      },
    });
    try {
      const created = await fetch(`${behindCompose.url}${api}`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify(session),
      });
      expect(created.status).toBe(201);
      const { id, url } = (await created.json()) as { id: string; url: string };
      expect(url).toBe(`http://localhost:4100/payment-provider/checkout/${id}`);
      expect((await fetch(`${behindCompose.url}/payment-provider/checkout/${id}`)).status).toBe(200);
    } finally {
      await behindCompose.close(0);
    }
  });

  it("is not served when off", async () => {
    const off = await startTestSim({ paymentProvider: null });
    try {
      expect((await fetch(`${off.url}/payment-provider/checkout/cs_x`)).status).toBe(404);
    } finally {
      await off.close(0);
    }
  });
});
