import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getFreePort, waitFor } from "@dormant/testing";
import { Webhook } from "standardwebhooks";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfOf, signedUpAgent } from "../test-support/test-dashboard.ts";
import { WebhookActionLimiter } from "./action-limit.ts";
import { createTestWebhooksDashboard, type TestWebhooksDashboard } from "./test-webhooks-dashboard.ts";

type Agent = ReturnType<typeof request.agent>;

/** Where the notifier delivers: /ok answers 200, /fail 500; every POST is recorded. */
interface Received {
  path: string;
  body: string;
  headers: Record<string, string>;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
      received.push({ path: req.url ?? "", body, headers });
      res.statusCode = req.url?.startsWith("/fail") ? 500 : 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SECRET = /whsec_[A-Za-z0-9+/]{43}=/;

async function addEndpoint(agent: Agent, fields: { url: string; events?: string[]; mode?: string; description?: string }) {
  const form = await agent.get(`/webhooks?mode=${fields.mode ?? "live"}`);
  const body = new URLSearchParams({ _csrf: csrfOf(form.text), mode: fields.mode ?? "live", url: fields.url });
  for (const event of fields.events ?? ["filing.accepted", "filing.rejected"]) body.append("events", event);
  if (fields.description) body.append("description", fields.description);
  return agent.post("/webhooks/endpoints").type("form").send(body.toString());
}

const endpointIdIn = (page: string) => /\/webhooks\/endpoints\/(we_[A-Za-z0-9]+)\?mode=/.exec(page)?.[1] ?? "";

describe("the Webhooks pages (the real notifier as a process on the test vhost)", () => {
  let dash: TestWebhooksDashboard;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    dash = await createTestWebhooksDashboard("webhooks");
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    await receiver?.close();
  }, 120_000);

  it("lists no endpoints at first, with a Webhooks nav link, the add form and the Live/Test switch", async () => {
    const { agent } = await signedUpAgent(dash.app, "Hooks Ltd");
    const response = await agent.get("/webhooks");
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.text.match(/<h1>/g)).toHaveLength(1);
    expect(response.text).toContain('<a href="/webhooks" aria-current="page">Webhooks</a>');
    expect(response.text).toContain('<label for="endpoint-url">Endpoint URL</label>');
    expect(response.text).toContain('<button type="submit">Add endpoint</button>');
    expect(response.text).toContain('<a href="/webhooks?mode=live" aria-current="page">Live endpoints</a>');
    expect(response.text).toContain("No live endpoints yet.");
    expect(response.text).not.toMatch(/<script>|\son[a-z]+=/i);
    expect((await agent.get("/webhooks?mode=test")).text).toContain("No test endpoints yet.");
    // Signed out: to the sign-in page.
    const anonymous = await request(dash.app).get("/webhooks");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe("/signin");
  });

  it("adds an endpoint and shows its signing secret once, with a Copy button, never again", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const created = await addEndpoint(agent, { url: `${receiver.url}/ok/once`, events: ["filing.accepted"], description: "CI hook" });
    expect(created.status).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const secret = SECRET.exec(created.text)?.[0];
    expect(secret).toBeDefined();
    expect(created.text).toContain('<label for="new-endpoint-secret">Signing secret</label>');
    expect(created.text).toMatch(/<input id="new-endpoint-secret" class="secret" type="text" readonly[^>]* value="whsec_/);
    expect(created.text).toContain('<button type="button" class="copy" data-copy-target="new-endpoint-secret">Copy</button>');
    expect(created.text).toContain(`${receiver.url}/ok/once`);
    expect(created.text).toContain("CI hook");
    const listed = await agent.get("/webhooks");
    expect(listed.text).toContain(`${receiver.url}/ok/once`);
    expect(listed.text).toContain("<td>Filing accepted</td>");
    expect(listed.text).toContain("<td>Enabled</td>");
    expect(listed.text).not.toMatch(SECRET);
    const page = await agent.get(`/webhooks/endpoints/${endpointIdIn(listed.text)}?mode=live`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(SECRET);
    // Live and test endpoints are separate.
    expect((await agent.get("/webhooks?mode=test")).text).toContain("No test endpoints yet.");
    const test = await addEndpoint(agent, { url: `${receiver.url}/ok/test-mode`, mode: "test" });
    expect(test.status).toBe(201);
    expect(test.text).toContain("Your new test endpoint");
    expect((await agent.get("/webhooks?mode=test")).text).toContain(`${receiver.url}/ok/test-mode`);
    expect((await agent.get("/webhooks?mode=live")).text).not.toContain(`${receiver.url}/ok/test-mode`);
  });

  it("explains what is wrong with the form, and the notifier's refusal of a link-local address (in general terms)", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const empty = await addEndpoint(agent, { url: "" });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('<p class="error" id="endpoint-url-error">Enter the endpoint&#39;s URL.</p>');
    expect(empty.text).toMatch(/id="endpoint-url"[^>]*aria-describedby="endpoint-url-hint endpoint-url-error" aria-invalid="true"/);
    const noEvents = await addEndpoint(agent, { url: `${receiver.url}/ok/x`, events: [] });
    expect(noEvents.status).toBe(422);
    expect(noEvents.text).toContain("Choose at least one event type.");
    const ftp = await addEndpoint(agent, { url: "ftp://example.com/hook" });
    expect(ftp.status).toBe(422);
    expect(ftp.text).toContain("Enter a full address starting with https:// (or http://), without a user name or password.");
    const metadata = await addEndpoint(agent, { url: "http://169.254.169.254/latest/meta-data" });
    expect(metadata.status).toBe(422);
    expect(metadata.text).toContain(
      '<p class="error" id="endpoint-url-error">The platform will not send to this URL: its host resolves to a non-public address (private, loopback, link-local, cloud metadata or reserved), which is refused',
    );
    expect(metadata.text).toContain('value="http://169.254.169.254/latest/meta-data"');
    expect(metadata.text).not.toMatch(SECRET);
    expect((await agent.get("/webhooks")).text).toContain("No live endpoints yet.");
  });

  it("sends a test event and shows the endpoint's delivery attempts, 25 a page", async () => {
    const { agent } = await signedUpAgent(dash.app);
    await addEndpoint(agent, { url: `${receiver.url}/ok/deliveries` });
    const id = endpointIdIn((await agent.get("/webhooks")).text);
    const endpointPage = await agent.get(`/webhooks/endpoints/${id}?mode=live`);
    expect(endpointPage.text).toContain("No delivery attempts yet.");
    const sent = await agent
      .post(`/webhooks/endpoints/${id}/test`)
      .type("form")
      .send({ _csrf: csrfOf(endpointPage.text), mode: "live" });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toMatch(new RegExp(`^/webhooks/endpoints/${id}\\?mode=live&test_sent=evt_`));
    const shown = await agent.get(sent.headers.location as string);
    expect(shown.text).toContain('role="status" id="test-status">Test event <code>evt_');
    await waitFor(() => receiver.received.some((hit) => hit.path === "/ok/deliveries" && hit.body.includes('"webhook.test"')), {
      timeoutMs: 20_000,
      what: "the test event at the receiver",
    });
    const delivered = await waitFor(
      async () => {
        const page = await agent.get(`/webhooks/endpoints/${id}`);
        return page.text.includes("<td>Delivered</td>") ? page : undefined;
      },
      { timeoutMs: 20_000, what: "the delivered attempt" },
    );
    expect(delivered.text).toMatch(
      /<td>Test event<br><code>evt_[A-Za-z0-9_]+<\/code><\/td>\s*<td>1<\/td>\s*<td>Delivered<\/td>\s*<td>200<\/td>/,
    );
    // 25 more: the attempts are paged, newest first.
    for (let i = 0; i < 25; i++) {
      const sentAgain = await agent
        .post(`/webhooks/endpoints/${id}/test`)
        .type("form")
        .send({ _csrf: csrfOf(endpointPage.text), mode: "live" });
      expect(sentAgain.status).toBe(303);
    }
    const first = await waitFor(
      async () => {
        const page = await agent.get(`/webhooks/endpoints/${id}?mode=live`);
        return page.text.includes("1 to 25 of 26") ? page : undefined;
      },
      { timeoutMs: 30_000, what: "26 attempts" },
    );
    expect(first.text.match(/<td>Delivered<\/td>/g)).toHaveLength(25);
    expect(first.text).toContain(`<a href="/webhooks/endpoints/${id}?mode=live&amp;page=2" rel="next">Older</a>`);
    const second = await agent.get(`/webhooks/endpoints/${id}?mode=live&page=2`);
    expect(second.text).toContain("26 to 26 of 26");
    expect(second.text).toContain(`<a href="/webhooks/endpoints/${id}?mode=live&amp;page=1" rel="prev">Newer</a>`);
  });

  it("shows failed attempts with the status or the error, a disabled endpoint as such, and enables it again", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const closedPort = await getFreePort();
    await addEndpoint(agent, { url: `${receiver.url}/fail/here` });
    await addEndpoint(agent, { url: `http://127.0.0.1:${closedPort}/nobody` });
    const list = await agent.get("/webhooks");
    const [refusedId, failingId] = [...list.text.matchAll(/\/webhooks\/endpoints\/(we_[A-Za-z0-9]+)\?mode=live/g)].map((m) => m[1]!);
    const csrf = csrfOf(list.text);
    for (const id of [failingId, refusedId]) {
      expect((await agent.post(`/webhooks/endpoints/${id}/test`).type("form").send({ _csrf: csrf, mode: "live" })).status).toBe(303);
    }
    const failing = await waitFor(
      async () => {
        const page = await agent.get(`/webhooks/endpoints/${failingId}?mode=live`);
        return page.text.includes("<td>Failed</td>") ? page : undefined;
      },
      { timeoutMs: 20_000, what: "a failed attempt" },
    );
    expect(failing.text).toMatch(/<td>Failed<\/td>\s*<td>500<\/td>/);
    const disabled = await waitFor(
      async () => {
        const page = await agent.get(`/webhooks/endpoints/${refusedId}?mode=live`);
        return page.text.includes('<strong class="disabled">Disabled</strong>') ? page : undefined;
      },
      { timeoutMs: 30_000, what: "the endpoint disabled" },
    );
    expect(disabled.text).toMatch(/<td>Failed<\/td>\s*<td><span class="muted">none<\/span><\/td>\s*<td>[^<]+<\/td>/);
    expect(disabled.text).toContain("This endpoint is disabled");
    expect(disabled.text).not.toContain(">Send test event</button>");
    const listed = await agent.get("/webhooks");
    expect(listed.text).toContain('<tr class="is-disabled">');
    expect(listed.text).toContain('<strong class="disabled">Disabled</strong>');

    // Enabled again (its server would be back): the same endpoint, "Send test event" again.
    expect(disabled.text).toContain(`<form method="post" action="/webhooks/endpoints/${refusedId}/enable">`);
    expect((await agent.post(`/webhooks/endpoints/${refusedId}/enable`).type("form").send({ mode: "live" })).status).toBe(403);
    const enabled = await agent
      .post(`/webhooks/endpoints/${refusedId}/enable`)
      .type("form")
      .send({ _csrf: csrfOf(disabled.text), mode: "live" });
    expect(enabled.status).toBe(303);
    expect(enabled.headers.location).toBe(`/webhooks/endpoints/${refusedId}?mode=live&enabled=1`);
    const page = await agent.get(enabled.headers.location as string);
    expect(page.text).toContain('id="enabled-status">The endpoint is enabled again');
    expect(page.text).not.toContain('<strong class="disabled">Disabled</strong>');
    expect(page.text).toContain(">Send test event</button>");
    const other = await signedUpAgent(dash.app, "Other Ltd");
    const otherForm = await other.agent.get("/webhooks");
    const refused = await other.agent
      .post(`/webhooks/endpoints/${refusedId}/enable`)
      .type("form")
      .send({ _csrf: csrfOf(otherForm.text), mode: "live" });
    expect(refused.status).toBe(404);
  });

  it("rotates the signing secret: the new one shown once, events then signed with both secrets", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const created = await addEndpoint(agent, { url: `${receiver.url}/ok/rotate` });
    const oldSecret = SECRET.exec(created.text)?.[0] ?? "";
    const id = endpointIdIn(created.text);
    const page = await agent.get(`/webhooks/endpoints/${id}?mode=live`);
    expect(page.text).toContain('<h2 id="rotate-title">Rotate the signing secret</h2>');
    expect(page.text).toContain(`<form method="post" action="/webhooks/endpoints/${id}/rotate">`);
    const rotated = await agent
      .post(`/webhooks/endpoints/${id}/rotate`)
      .type("form")
      .send({ _csrf: csrfOf(page.text), mode: "live" });
    expect(rotated.status).toBe(200);
    expect(rotated.headers["cache-control"]).toBe("no-store");
    expect(rotated.text).toContain('<h2 id="rotated-secret-title">New signing secret</h2>');
    expect(rotated.text).toContain('<button type="button" class="copy" data-copy-target="new-endpoint-secret">Copy</button>');
    const newSecret = SECRET.exec(rotated.text)?.[0] ?? "";
    expect(newSecret).toMatch(SECRET);
    expect(newSecret).not.toBe(oldSecret);
    expect((await agent.get(`/webhooks/endpoints/${id}?mode=live`)).text).not.toMatch(SECRET);

    // A test event now: verified by the standardwebhooks package with either secret.
    const sent = await agent
      .post(`/webhooks/endpoints/${id}/test`)
      .type("form")
      .send({ _csrf: csrfOf(rotated.text), mode: "live" });
    expect(sent.status).toBe(303);
    const hit = await waitFor(() => receiver.received.find((r) => r.path === "/ok/rotate" && r.body.includes('"webhook.test"')), {
      timeoutMs: 20_000,
      what: "the test event signed after the rotation",
    });
    expect(hit.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [newSecret, oldSecret]) {
      expect(new Webhook(secret).verify(hit.body, hit.headers)).toMatchObject({ type: "webhook.test", data: { endpoint_id: id } });
    }
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(hit.body, hit.headers)).toThrow();
  });

  it("deletes an endpoint through its POST form", async () => {
    const { agent } = await signedUpAgent(dash.app);
    await addEndpoint(agent, { url: `${receiver.url}/ok/to-delete` });
    const list = await agent.get("/webhooks");
    const id = endpointIdIn(list.text);
    expect(list.text).toContain(`aria-label="Delete ${receiver.url}/ok/to-delete"`);
    const deleted = await agent
      .post(`/webhooks/endpoints/${id}/delete`)
      .type("form")
      .send({ _csrf: csrfOf(list.text), mode: "live" });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.location).toBe("/webhooks?mode=live&deleted=1");
    const after = await agent.get(deleted.headers.location as string);
    expect(after.text).toContain("The endpoint was deleted");
    expect(after.text).not.toContain("/ok/to-delete");
    expect((await agent.get(`/webhooks/endpoints/${id}?mode=live`)).status).toBe(404);
    const again = await agent
      .post(`/webhooks/endpoints/${id}/delete`)
      .type("form")
      .send({ _csrf: csrfOf(list.text), mode: "live" });
    expect(again.status).toBe(404);
  });

  it("never shows another account's endpoint, and refuses its delete, test event and rotation as not found", async () => {
    const owner = await signedUpAgent(dash.app, "Owner Ltd");
    await addEndpoint(owner.agent, { url: `${receiver.url}/ok/owners` });
    const id = endpointIdIn((await owner.agent.get("/webhooks")).text);
    const other = await signedUpAgent(dash.app, "Other Ltd");
    const list = await other.agent.get("/webhooks");
    expect(list.text).not.toContain("/ok/owners");
    expect(list.text).toContain("No live endpoints yet.");
    expect((await other.agent.get(`/webhooks/endpoints/${id}`)).status).toBe(404);
    expect((await other.agent.get(`/webhooks/endpoints/${id}?mode=live`)).status).toBe(404);
    const csrf = csrfOf(list.text);
    const deleted = await other.agent.post(`/webhooks/endpoints/${id}/delete`).type("form").send({ _csrf: csrf, mode: "live" });
    expect(deleted.status).toBe(404);
    expect(deleted.text).toContain("Page not found");
    expect((await other.agent.post(`/webhooks/endpoints/${id}/test`).type("form").send({ _csrf: csrf, mode: "live" })).status).toBe(404);
    const rotated = await other.agent.post(`/webhooks/endpoints/${id}/rotate`).type("form").send({ _csrf: csrf, mode: "live" });
    expect(rotated.status).toBe(404);
    expect(rotated.text).not.toMatch(SECRET);
    expect((await other.agent.get("/webhooks/endpoints/not-an-id")).status).toBe(404);
    // Still the owner's.
    expect((await owner.agent.get(`/webhooks/endpoints/${id}?mode=live`)).status).toBe(200);
  });

  it("refuses the add, delete, test and rotate forms without their CSRF token, doing nothing", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const noToken = await agent
      .post("/webhooks/endpoints")
      .type("form")
      .send({ mode: "live", url: `${receiver.url}/ok/csrf`, events: "filing.accepted" });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain("This form has expired");
    const wrong = await agent
      .post("/webhooks/endpoints")
      .type("form")
      .send({ _csrf: "x".repeat(43), mode: "live", url: `${receiver.url}/ok/csrf`, events: "filing.accepted" });
    expect(wrong.status).toBe(403);
    expect((await agent.get("/webhooks")).text).toContain("No live endpoints yet.");
    await addEndpoint(agent, { url: `${receiver.url}/ok/kept` });
    const id = endpointIdIn((await agent.get("/webhooks")).text);
    expect((await agent.post(`/webhooks/endpoints/${id}/delete`).type("form").send({ mode: "live" })).status).toBe(403);
    expect((await agent.post(`/webhooks/endpoints/${id}/test`).type("form").send({ mode: "live" })).status).toBe(403);
    const rotate = await agent.post(`/webhooks/endpoints/${id}/rotate`).type("form").send({ mode: "live" });
    expect(rotate.status).toBe(403);
    expect(rotate.text).not.toMatch(SECRET);
    expect((await agent.get("/webhooks")).text).toContain("/ok/kept");
  });

  it("limits the webhook forms per account: Send test and every change, 429 with Retry-After, nothing done", async () => {
    const limited = dash.appWith({
      webhooks: {
        limiter: new WebhookActionLimiter(dash.base.redis, {
          prefix: `${dash.base.redisPrefix}whlimit:`,
          windowSeconds: 60,
          actionsPerAccount: 4,
          testsPerAccount: 2,
        }),
      },
    });
    const { agent } = await signedUpAgent(limited);
    expect((await addEndpoint(agent, { url: `${receiver.url}/ok/limited` })).status).toBe(201);
    const id = endpointIdIn((await agent.get("/webhooks")).text);
    const sendTest = async () => {
      const page = await agent.get(`/webhooks/endpoints/${id}?mode=live`);
      return agent
        .post(`/webhooks/endpoints/${id}/test`)
        .type("form")
        .send({ _csrf: csrfOf(page.text), mode: "live" });
    };
    expect((await sendTest()).status).toBe(303);
    expect((await sendTest()).status).toBe(303);
    const third = await sendTest();
    expect(third.status).toBe(429);
    expect(Number(third.headers["retry-after"])).toBeGreaterThan(0);
    expect(third.text).toContain("Too many webhook changes");
    // Another account is not held back by this one's count.
    const other = await signedUpAgent(limited);
    expect((await addEndpoint(other.agent, { url: `${receiver.url}/ok/limited-other` })).status).toBe(201);
    // Changes count too: add + 3 tests = 4 of 4 (the refused test counted), so a delete is refused and the endpoint stays.
    const page = await agent.get(`/webhooks/endpoints/${id}?mode=live`);
    const deleted = await agent
      .post(`/webhooks/endpoints/${id}/delete`)
      .type("form")
      .send({ _csrf: csrfOf(page.text), mode: "live" });
    expect(deleted.status).toBe(429);
    expect((await agent.get("/webhooks")).text).toContain("/ok/limited");
    const tests = () => receiver.received.filter((hit) => hit.path === "/ok/limited" && hit.body.includes('"webhook.test"'));
    await waitFor(() => tests().length >= 2, { timeoutMs: 20_000, what: "the two test events allowed" });
    await sleep(1_000);
    expect(tests()).toHaveLength(2);
  });

  // Last: it stops the notifier.
  it("answers the 503 page when the notifier is not answering", async () => {
    const { agent } = await signedUpAgent(dash.app);
    const form = await agent.get("/webhooks");
    await dash.notifier?.stop();
    const list = await agent.get("/webhooks");
    expect(list.status).toBe(503);
    expect(list.headers["retry-after"]).toBe("30");
    expect(list.text).toContain("The platform is not answering");
    const add = await agent
      .post("/webhooks/endpoints")
      .type("form")
      .send({ _csrf: csrfOf(form.text), mode: "live", url: `${receiver.url}/ok/down`, events: "filing.accepted" });
    expect(add.status).toBe(503);
    expect(add.text).not.toMatch(SECRET);
  }, 60_000);
});
