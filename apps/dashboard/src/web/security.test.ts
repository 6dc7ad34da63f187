import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfOf, createTestDashboard, signedUpAgent, type TestDashboard } from "../test-support/test-dashboard.ts";

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
});
