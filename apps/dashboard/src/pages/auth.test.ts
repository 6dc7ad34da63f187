import { RpcNoServerError, RpcTimeoutError } from "@dormant/bus";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayClient } from "../bus/gateway.ts";
import {
  createTestDashboard,
  csrfOf,
  newCredentials,
  sessionCookieOf,
  signedUpAgent,
  type TestDashboard,
} from "../test-support/test-dashboard.ts";

describe("sign-up, sign-in and sign-out (real Postgres, Redis and bus; stand-in gateway)", () => {
  let dash: TestDashboard;
  beforeAll(async () => {
    dash = await createTestDashboard("auth");
  });
  afterAll(async () => {
    await dash?.close();
  });

  it("signs up: a gateway account, a user with a hashed normalised email, signed in on /account", async () => {
    const { agent, email, password } = await signedUpAgent(dash.app, "Smith & Co <Accountants>");
    const account = await agent.get("/account");
    expect(account.status).toBe(200);
    expect(account.text).toContain("<h1>Your account</h1>");
    expect(account.text).toContain("Smith &amp; Co &lt;Accountants&gt;");
    const user = await dash.db.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(account.text).toContain(user.accountId);
    expect(user.passwordHash).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(user.passwordHash).not.toContain(password);
    expect(dash.gateway.accounts.get(user.accountId)?.name).toBe("Smith & Co <Accountants>");
  });

  it("makes a retried sign-up (same form, same request id) one account, and refuses a taken email", async () => {
    const agent = request.agent(dash.app);
    const credentials = newCredentials();
    const form = await agent.get("/signup");
    const requestId = /name="request_id" value="([^"]+)"/.exec(form.text)?.[1];
    const body = {
      _csrf: csrfOf(form.text),
      request_id: requestId,
      name: "Retry Ltd",
      ...credentials,
      email: credentials.email.toUpperCase(),
    };
    const before = dash.gateway.accounts.size;
    const first = await agent.post("/signup").type("form").send(body);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe("/account");
    const other = request.agent(dash.app);
    const otherForm = await other.get("/signup");
    const taken = await other
      .post("/signup")
      .type("form")
      .send({ ...body, _csrf: csrfOf(otherForm.text), request_id: /name="request_id" value="([^"]+)"/.exec(otherForm.text)?.[1] });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain("An account with this email already exists");
    expect(dash.gateway.accounts.size).toBe(before + 1);
  });

  it("explains every invalid field, linked with aria-describedby", async () => {
    const agent = request.agent(dash.app);
    const form = await agent.get("/signup");
    const response = await agent
      .post("/signup")
      .type("form")
      .send({ _csrf: csrfOf(form.text), request_id: "x".repeat(20), name: "", email: "nope", password: "short" });
    expect(response.status).toBe(422);
    expect(response.text).toContain("Enter your agency&#39;s name.");
    expect(response.text).toContain("Enter an email address like name@example.com.");
    expect(response.text).toContain("Password must be at least 12 characters.");
    expect(response.text).toMatch(/id="password"[^>]*aria-describedby="password-hint password-error"/);
  });

  it("signs in with a new session id (the old one destroyed), signs out, and says one message for a wrong email or password", async () => {
    const { email, password } = await signedUpAgent(dash.app);
    const agent = request.agent(dash.app);
    const form = await agent.get("/signin");
    expect(form.text).toContain("<h1>Sign in</h1>");
    const anonymous = sessionCookieOf(form);
    expect(anonymous).toBeDefined();

    const wrongPassword = await agent
      .post("/signin")
      .type("form")
      .send({ _csrf: csrfOf(form.text), email, password: "not the password!" });
    const wrongEmail = await agent
      .post("/signin")
      .type("form")
      .send({ _csrf: csrfOf(form.text), email: "nobody@example.com", password });
    for (const wrong of [wrongPassword, wrongEmail]) {
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain("Email or password is wrong.");
    }

    const signedIn = await agent
      .post("/signin")
      .type("form")
      .send({ _csrf: csrfOf(form.text), email: ` ${email.toUpperCase()} `, password });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe("/account");
    const fresh = sessionCookieOf(signedIn);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(anonymous);
    // The pre-sign-in session id is worthless now: no fixation.
    const fixated = await request(dash.app).get("/account").set("Cookie", `dashboard_session=${anonymous}`);
    expect(fixated.status).toBe(303);
    expect(fixated.headers.location).toBe("/signin");

    const account = await agent.get("/account");
    expect(account.status).toBe(200);
    expect(account.text).toMatch(/<a href="\/account" aria-current="page">Account<\/a>/);
    expect(account.text).toContain('<a href="/api-access">API access</a>');
    expect(account.text).toMatch(/<form method="post" action="\/signout"[^>]*>.*<button type="submit">Sign out<\/button>/s);

    const root = await agent.get("/");
    expect(root.headers.location).toBe("/account");
    const signedOut = await agent
      .post("/signout")
      .type("form")
      .send({ _csrf: csrfOf(account.text) });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.location).toBe("/signin");
    expect((await request(dash.app).get("/account").set("Cookie", `dashboard_session=${fresh}`)).headers.location).toBe("/signin");
    expect((await agent.get("/")).headers.location).toBe("/signin");
  });

  it("sets the session cookie HttpOnly, SameSite=Lax, Path=/, and Secure when served over https", async () => {
    const plain = (await request(dash.app).get("/signin")).headers["set-cookie"]?.[0] ?? "";
    expect(plain).toMatch(/^dashboard_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const secure = (await request(dash.secureApp).get("/signin")).headers["set-cookie"]?.[0] ?? "";
    expect(secure).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it("slows brute force: the 6th attempt for an email within the window is 429 with when to retry, even with the right password", async () => {
    const { email, password } = await signedUpAgent(dash.app);
    const agent = request.agent(dash.app);
    const form = await agent.get("/signin");
    const attempt = (pw: string) =>
      agent
        .post("/signin")
        .type("form")
        .send({ _csrf: csrfOf(form.text), email, password: pw });
    for (let i = 0; i < 5; i++) expect((await attempt(`wrong password ${i}`)).status).toBe(401);
    const refused = await attempt(password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(800);
    expect(refused.text).toMatch(/Too many sign-in attempts\. Try again in 15 minutes \(after \d\d:\d\d UTC\)\./);
    // Another email from the same address still signs in (the address limit is 20).
    const other = await signedUpAgent(dash.app);
    const ok = await agent
      .post("/signin")
      .type("form")
      .send({ _csrf: csrfOf(form.text), email: other.email, password: other.password });
    expect(ok.status).toBe(303);
  });

  it("clears the email's count on success: a user's own typos never add up to a lock-out", async () => {
    const { email, password } = await signedUpAgent(dash.app);
    for (let round = 0; round < 2; round++) {
      const agent = request.agent(dash.app);
      const form = await agent.get("/signin");
      for (let i = 0; i < 4; i++)
        expect(
          (
            await agent
              .post("/signin")
              .type("form")
              .send({ _csrf: csrfOf(form.text), email, password: "typo typo typo" })
          ).status,
        ).toBe(401);
      expect(
        (
          await agent
            .post("/signin")
            .type("form")
            .send({ _csrf: csrfOf(form.text), email, password })
        ).status,
      ).toBe(303);
    }
  });

  it("limits attempts per address too (20 per window, over any emails)", async () => {
    const agent = request.agent(dash.app);
    const form = await agent.get("/signin");
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await agent
        .post("/signin")
        .type("form")
        .send({ _csrf: csrfOf(form.text), email: `guess${i}@example.com`, password: "guess guess guess" });
      statuses.push(response.status);
    }
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(1);
    expect(statuses.at(-1)).toBe(429);
  });

  it("redirects / and the signed-in pages to /signin without a session", async () => {
    for (const path of ["/", "/account", "/api-access"]) {
      const response = await request(dash.app).get(path);
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe("/signin");
    }
  });

  it("answers a clear 503 page when the gateway does not answer (no server, time-out)", async () => {
    const { sessionId } = await signedUpAgent(dash.app);
    const cookie = `dashboard_session=${sessionId}`;
    for (const failure of [new RpcNoServerError("gateway.get_account", "gateway.rpc"), new RpcTimeoutError("gateway.get_account", 5000)]) {
      const down = dash.appWithGateway(
        new GatewayClient({
          rpcCall: async () => {
            throw failure;
          },
        }),
      );
      const response = await request(down).get("/account").set("Cookie", cookie);
      expect(response.status).toBe(503);
      expect(response.headers["retry-after"]).toBe("30");
      expect(response.text).toContain("The platform is not answering");
      expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    }
  });
});
