import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfOf,
  createTestDashboard,
  newCredentials,
  sessionCookieOf,
  signedUpAgent,
  type TestDashboard,
} from "../test-support/test-dashboard.ts";

/** Every POST route of the dashboard, with a valid body apart from the token. */
const POST_ROUTES = [
  ["/signup", { name: "X Ltd", email: "x@example.com", password: "long enough password", request_id: "r".repeat(20) }],
  ["/signin", { email: "x@example.com", password: "long enough password" }],
  ["/signout", {}],
  ["/setup-password", { token: "t".repeat(43), password: "long enough password" }],
  ["/api-access/enable", {}],
  ["/api-access/keys", { name: "k", mode: "test" }],
  ["/api-access/keys/key_1/revoke", {}],
] as const;

describe("dashboard security: CSRF, headers, markup", () => {
  let dash: TestDashboard;
  beforeAll(async () => {
    dash = await createTestDashboard("security");
  });
  afterAll(async () => {
    await dash?.close();
  });

  it("refuses every POST without the CSRF token, with a wrong one, or without a session: 403 and a clear page", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const page = await agent.get("/account");
    const token = csrfOf(page.text);
    const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const [path, body] of POST_ROUTES) {
      for (const sent of [body, { ...body, _csrf: wrong }, { ...body, _csrf: "" }]) {
        const response = await agent.post(path).type("form").send(sent);
        expect(response.status, `${path} ${JSON.stringify(sent)}`).toBe(403);
        expect(response.text).toContain("This form has expired");
      }
      const noSession = await request(dash.app)
        .post(path)
        .type("form")
        .send({ ...body, _csrf: token });
      expect(noSession.status).toBe(403);
    }
    // Still signed in: nothing was done.
    expect((await agent.get("/account")).status).toBe(200);
  });

  it("refuses another session's token", async () => {
    const first = await signedUpAgent(dash.app);
    const second = await signedUpAgent(dash.app);
    const foreign = csrfOf((await first.agent.get("/account")).text);
    const response = await second.agent.post("/signout").type("form").send({ _csrf: foreign });
    expect(response.status).toBe(403);
  });

  it("sends the strict CSP and safety headers, and no inline script or style, on every page", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const page = await agent.get("/api-access");
    await agent
      .post("/api-access/enable")
      .type("form")
      .send({ _csrf: csrfOf(page.text) });
    const created = await agent
      .post("/api-access/keys")
      .type("form")
      .send({ _csrf: csrfOf(page.text), name: "k", mode: "test" });
    const anonymous = request.agent(dash.app);
    const pages = [
      await anonymous.get("/signin"),
      await anonymous.get("/signup"),
      await anonymous.get("/setup-password?token=nope"),
      await anonymous.get("/no-such-page"),
      await agent.get("/account"),
      await agent.get("/api-access"),
      created,
    ];
    for (const response of pages) {
      const csp = response.headers["content-security-policy"];
      expect(csp).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      const text = response.text;
      expect(text.match(/<h1>/g)).toHaveLength(1);
      expect(text).not.toMatch(/<script(?![^>]*\bsrc="\/assets\/)/);
      expect(text).not.toMatch(/\sstyle=|<style|\son[a-z]+=|javascript:/i);
      expect(text).not.toMatch(/https?:\/\//);
      expect(text).toMatch(/<header[^>]*>/);
      expect(text).toContain('<main id="main">');
      // Every input (but hidden ones) and select has a label.
      for (const match of text.matchAll(/<(input|select)\b([^>]*)>/g)) {
        const attributes = match[2] ?? "";
        if (/type="hidden"/.test(attributes)) continue;
        const id = /\bid="([^"]+)"/.exec(attributes)?.[1];
        expect(id, attributes).toBeDefined();
        expect(text).toContain(`<label for="${id}">`);
      }
    }
    const assets = [await request(dash.app).get("/assets/app.js"), await request(dash.app).get("/assets/app.css")];
    for (const asset of assets) {
      expect(asset.status).toBe(200);
      expect(asset.headers["content-security-policy"]).toContain("script-src 'self'");
    }
  });

  it("escapes everything it renders", async () => {
    const { agent } = await signedUpAgent(dash.app, `"><script>alert(1)</script>`);
    const account = await agent.get("/account");
    expect(account.text).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(account.text).not.toContain("<script>alert");
  });

  it("writes no session to Redis for an anonymous GET of a page without a form; a page with a form gets one", async () => {
    const sessions = async () => (await dash.redis.keys(`${dash.redisPrefix}session:*`)).length;
    const before = await sessions();
    for (const path of [
      "/",
      "/no-such-page",
      "/account",
      "/money",
      "/setup-password?token=nope",
      `/setup-password?token=${"n".repeat(43)}`,
      "/assets/app.css",
      "/healthz",
    ]) {
      const response = await request(dash.app).get(path);
      expect(sessionCookieOf(response), path).toBeUndefined();
    }
    expect(await sessions()).toBe(before);
    // A cookie naming no session is not a reason to make one either.
    const stale = await request(dash.app)
      .get("/no-such-page")
      .set("Cookie", `dashboard_session=${"s".repeat(43)}`);
    expect(sessionCookieOf(stale)).toBeUndefined();
    expect(await sessions()).toBe(before);
    for (const path of ["/signin", "/signup"]) {
      const response = await request(dash.app).get(path);
      expect(sessionCookieOf(response), path).toBeDefined();
      expect(csrfOf(response.text)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(await sessions()).toBe(before + 2);
  });

  it("does not let a sign-up form's request_id claim the account another session's sign-up opened", async () => {
    const victim = request.agent(dash.app);
    const victimForm = await victim.get("/signup");
    const requestId = /name="request_id" value="([^"]+)"/.exec(victimForm.text)?.[1] ?? "";
    const opened = await victim
      .post("/signup")
      .type("form")
      .send({ _csrf: csrfOf(victimForm.text), request_id: requestId, name: "Victim Ltd", ...newCredentials() });
    expect(opened.status).toBe(303);
    const accounts = dash.gateway.accounts.size;

    // Someone who learnt the request_id replays it from a session of their own.
    const attacker = request.agent(dash.app);
    const attackerForm = await attacker.get("/signup");
    const credentials = newCredentials();
    const replay = await attacker
      .post("/signup")
      .type("form")
      .send({ _csrf: csrfOf(attackerForm.text), request_id: requestId, name: "Attacker Ltd", ...credentials });
    expect(replay.status).toBe(422);
    expect(replay.text).toContain("This form has expired; reload the page and try again.");
    expect(await dash.db.prisma.user.findUnique({ where: { email: credentials.email } })).toBeNull();
    expect(dash.gateway.accounts.size).toBe(accounts);
  });

  it("limits set-password attempts per address (20 per window), a bad token included", async () => {
    const agent = request.agent(dash.app);
    const csrf = csrfOf((await agent.get("/signin")).text);
    const attempt = (index: number) =>
      agent
        .post("/setup-password")
        .type("form")
        .send({ _csrf: csrf, token: `${index}`.padStart(43, "t"), password: "a long enough password" });
    for (let i = 0; i < 20; i++) expect((await attempt(i)).status).toBe(410);
    const refused = await attempt(20);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(800);
    expect(refused.text).toContain("Too many attempts to set a password.");
  });
});
