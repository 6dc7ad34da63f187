import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfOf, createTestDashboard, signedUpAgent, type TestDashboard } from "../test-support/test-dashboard.ts";

describe("the API access page (stand-in gateway on gateway.rpc)", () => {
  let dash: TestDashboard;
  beforeAll(async () => {
    dash = await createTestDashboard("api_access");
  });
  afterAll(async () => {
    await dash?.close();
  });

  it("enables API access, creates a key whose secret is shown once with a Copy button, lists and revokes it", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const off = await agent.get("/api-access");
    expect(off.status).toBe(200);
    expect(off.text).toContain("<h1>API access</h1>");
    expect(off.text).toContain('<button type="submit">Enable API access</button>');
    expect(off.text).not.toContain("Create key");

    const enabled = await agent
      .post("/api-access/enable")
      .type("form")
      .send({ _csrf: csrfOf(off.text) });
    expect(enabled.status).toBe(303);
    const on = await agent.get("/api-access");
    expect(on.text).not.toContain("Enable API access");
    expect(on.text).toMatch(/<label for="key-name">Key name<\/label>/);
    expect(on.text).toMatch(/<label for="key-mode">Mode<\/label>\s*<select id="key-mode" name="mode">/);
    expect(on.text).toContain('<option value="live">Live</option>');
    expect(on.text).toMatch(/<option value="test" selected>Test<\/option>/);
    expect(on.text).toContain("No keys yet.");

    const created = await agent
      .post("/api-access/keys")
      .type("form")
      .send({ _csrf: csrfOf(on.text), name: "CI server", mode: "live" });
    expect(created.status).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const secret = /<code id="new-key-secret">([^<]+)<\/code>/.exec(created.text)?.[1];
    expect(secret).toMatch(/^dk_live_/);
    expect(created.text).toContain('data-copy-target="new-key-secret">Copy</button>');
    expect(created.text).toContain("It is shown only once");

    const listed = await agent.get("/api-access");
    expect(listed.text).not.toContain(secret);
    expect(listed.text).toContain("CI server");
    expect(listed.text).toMatch(/<td>Live<\/td>\s*<td><code>dk_live_[^<]+<\/code><\/td>/);
    expect(listed.text).toContain("<td>Never</td>");
    expect(listed.text).toContain("<td>Active</td>");
    const keyId = [...dash.gateway.keys.values()].find((key) => key.name === "CI server")?.key_id ?? "";
    const revoke = await agent
      .post(`/api-access/keys/${keyId}/revoke`)
      .type("form")
      .send({ _csrf: csrfOf(listed.text) });
    expect(revoke.status).toBe(303);
    const after = await agent.get("/api-access");
    expect(after.text).toContain("<td>Revoked</td>");
    expect(after.text).not.toContain(">Revoke</button>");
  });

  it("refuses an empty name or an unknown mode with a message per field", async () => {
    const { agent, email } = await signedUpAgent(dash.app);
    const user = await dash.db.prisma.user.findUniqueOrThrow({ where: { email } });
    dash.gateway.accounts.set(user.accountId, { ...dash.gateway.accounts.get(user.accountId)!, api_access_enabled: true });
    const on = await agent.get("/api-access");
    const response = await agent
      .post("/api-access/keys")
      .type("form")
      .send({ _csrf: csrfOf(on.text), name: "  ", mode: "prod" });
    expect(response.status).toBe(422);
    expect(response.text).toContain("Enter a name for the key.");
    expect(response.text).toContain("Choose Live or Test.");
    expect(response.text).toMatch(/id="key-name"[^>]*aria-describedby="key-name-hint key-name-error"/);
  });

  it("never shows another account's key and refuses to revoke it", async () => {
    const owner = await signedUpAgent(dash.app, "Owner Ltd");
    const ownerPage = await owner.agent.get("/api-access");
    await owner.agent
      .post("/api-access/enable")
      .type("form")
      .send({ _csrf: csrfOf(ownerPage.text) });
    await owner.agent
      .post("/api-access/keys")
      .type("form")
      .send({ _csrf: csrfOf(ownerPage.text), name: "Owner key", mode: "test" });
    const ownerKey = [...dash.gateway.keys.values()].find((key) => key.name === "Owner key")!;

    const intruder = await signedUpAgent(dash.app, "Intruder Ltd");
    const intruderPage = await intruder.agent.get("/api-access");
    await intruder.agent
      .post("/api-access/enable")
      .type("form")
      .send({ _csrf: csrfOf(intruderPage.text) });
    const listed = await intruder.agent.get("/api-access");
    expect(listed.text).not.toContain("Owner key");
    expect(listed.text).not.toContain(ownerKey.prefix);
    const refused = await intruder.agent
      .post(`/api-access/keys/${ownerKey.key_id}/revoke`)
      .type("form")
      .send({ _csrf: csrfOf(listed.text) });
    expect(refused.status).toBe(404);
    expect(dash.gateway.keys.get(ownerKey.key_id)?.revoked_at).toBeNull();
  });

  it("renders the page with two RPCs whatever the number of keys (no N+1)", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const page = await agent.get("/api-access");
    await agent
      .post("/api-access/enable")
      .type("form")
      .send({ _csrf: csrfOf(page.text) });
    for (let i = 0; i < 5; i++)
      await agent
        .post("/api-access/keys")
        .type("form")
        .send({ _csrf: csrfOf(page.text), name: `k${i}`, mode: "test" });
    const before = new Map(dash.gateway.calls);
    const listed = await agent.get("/api-access");
    expect(listed.text.match(/<td>Active<\/td>/g)).toHaveLength(5);
    const delta = (type: string) => (dash.gateway.calls.get(type) ?? 0) - (before.get(type) ?? 0);
    expect(delta("gateway.get_account")).toBe(1);
    expect(delta("gateway.list_keys")).toBe(1);
  });
});
