import { createTestRedisPrefix, type TestRedis } from "@dormant/testing";
import type express from "express";
import { Redis } from "ioredis";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignUpRateLimiter } from "../auth/rate-limit.ts";
import { csrfOf, newCredentials } from "../test-support/test-dashboard.ts";
import { createTestWebhooksDashboard, type TestWebhooksDashboard } from "../webhooks/test-webhooks-dashboard.ts";

/** One sign-up through the form, from `address` (the app trusts one proxy hop). */
async function signUpFrom(app: express.Express, address: string, email?: string) {
  const agent = request.agent(app);
  const form = await agent.get("/signup").set("X-Forwarded-For", address);
  const requestId = /name="request_id" value="([^"]+)"/.exec(form.text)?.[1] ?? "";
  const credentials = { ...newCredentials(), ...(email ? { email } : {}) };
  const response = await agent
    .post("/signup")
    .set("X-Forwarded-For", address)
    .type("form")
    .send({ _csrf: csrfOf(form.text), request_id: requestId, name: "Busy Agency", ...credentials });
  return { response, ...credentials };
}

describe("sign-ups per client address (real Redis, Postgres and bus)", () => {
  let dash: TestWebhooksDashboard;
  let scope: TestRedis;
  let redis: Redis;
  let app: express.Express;
  beforeAll(async () => {
    dash = await createTestWebhooksDashboard("signup_limit", { notifier: false });
    scope = createTestRedisPrefix("dash_signup_limit");
    redis = new Redis(scope.url, { maxRetriesPerRequest: 1 });
    app = dash.appWith({
      trustProxyHops: 1,
      signUp: { limiter: new SignUpRateLimiter(redis, { prefix: scope.prefix, windowSeconds: 3600, perAddress: 10 }) },
    });
  }, 120_000);
  afterAll(async () => {
    redis?.disconnect();
    await scope?.cleanup();
    await dash?.close();
  }, 120_000);

  it("refuses the 11th sign-up from one address in the hour with 429 and when to retry; another address is unaffected", async () => {
    for (let i = 0; i < 10; i++) {
      const { response } = await signUpFrom(app, "203.0.113.7");
      expect(response.status).toBe(303);
    }
    const refused = await signUpFrom(app, "203.0.113.7");
    expect(refused.response.status).toBe(429);
    const retryAfter = Number(refused.response.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.response.text).toMatch(
      /<p class="alert" role="alert" id="form-error">Too many accounts have been created from your network\. Try again in (59|60) minutes \(after \d\d:\d\d UTC\)\.<\/p>/,
    );
    // Nothing was created for the refused sign-up.
    expect(await dash.base.db.prisma.user.findUnique({ where: { email: refused.email } })).toBeNull();
    // Another address signs up.
    expect((await signUpFrom(app, "203.0.113.8")).response.status).toBe(303);
    // Redis holds no address in clear.
    expect((await redis.keys(`${scope.prefix}*`)).join(" ")).not.toContain("203.0.113");
  }, 60_000);

  it("does not count a form with errors", async () => {
    const agent = request.agent(app);
    const form = await agent.get("/signup").set("X-Forwarded-For", "198.51.100.1");
    for (let i = 0; i < 12; i++) {
      const response = await agent
        .post("/signup")
        .set("X-Forwarded-For", "198.51.100.1")
        .type("form")
        .send({ _csrf: csrfOf(form.text), request_id: "x".repeat(20), name: "", email: "bad", password: "short" });
      expect(response.status).toBe(422);
    }
    expect((await signUpFrom(app, "198.51.100.1")).response.status).toBe(303);
  }, 60_000);

  it("counts an attempt with a taken email before answering it: over the limit, 429 rather than 'already exists'", async () => {
    const { email } = await signUpFrom(app, "192.0.2.50");
    for (let i = 0; i < 9; i++) {
      const { response } = await signUpFrom(app, "192.0.2.51", email);
      expect(response.status).toBe(409);
      expect(response.text).toContain("An account with this email already exists");
    }
    const { response } = await signUpFrom(app, "192.0.2.51", email);
    expect(response.status).toBe(409);
    // The address has used its 10 attempts: the 11th is refused before the email is looked up.
    const refused = await signUpFrom(app, "192.0.2.51", email);
    expect(refused.response.status).toBe(429);
    expect(refused.response.text).not.toContain("already exists");
    expect((await signUpFrom(app, "192.0.2.51")).response.status).toBe(429);
  }, 60_000);
});
