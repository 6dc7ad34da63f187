import { randomBytes } from "node:crypto";
import { type Bus, connectBus, type Subscription } from "@dormant/bus";
import {
  AppError,
  type CreateWebhookEndpointRequest,
  NOTIFIER_RPC_CATALOG,
  PLATFORM_TOPOLOGY,
  WEBHOOK_EVENT_TYPES,
  type WebhookCaller,
  type WebhookEndpointWithSecret,
  WEBHOOK_SECRET_PATTERN,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, type TestVhost } from "@dormant/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMIT_HEADERS } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const NOW = "2026-05-01T10:00:00.000Z";
const URL_OF_AGENT = "https://agent.example.com/hooks/dormant";
/** The stand-in refuses this host the way the notifier refuses a private address. */
const PRIVATE_URL = "https://private.example.com/hooks";

function alphanumeric(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join("");
}

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

interface Received {
  type: string;
  request: { caller: WebhookCaller } & Record<string, unknown>;
  requestId: string;
}

/**
 * A stand-in notifier on notifier.rpc: endpoints in memory by account and mode, every request
 * recorded. It answers a read with the stored record, secret and all, so the tests show that the
 * gateway's answer schema keeps a secret out of every answer but creation and rotation.
 */
function fakeNotifier() {
  const received: Received[] = [];
  const endpoints = new Map<string, WebhookEndpointWithSecret & { owner: string }>();
  const ownerOf = (caller: WebhookCaller) => `${caller.account_id}/${caller.mode}`;
  const record = (type: string, request: Received["request"], requestId: string) => received.push({ type, request, requestId });
  const find = (caller: WebhookCaller, id: string) => {
    const endpoint = endpoints.get(id);
    if (!endpoint || endpoint.owner !== ownerOf(caller)) {
      throw new AppError("WEBHOOK_ENDPOINT_NOT_FOUND", "No webhook endpoint with this id for this API key");
    }
    return endpoint;
  };
  const shown = ({ owner: _owner, ...endpoint }: WebhookEndpointWithSecret & { owner: string }) => endpoint;
  const handlers = {
    "notifier.create_endpoint": async (
      req: { caller: WebhookCaller; endpoint: CreateWebhookEndpointRequest },
      ctx: { requestId: string },
    ) => {
      record("create_endpoint", req, ctx.requestId);
      if (req.endpoint.url === PRIVATE_URL) {
        throw new AppError("VALIDATION_ERROR", "The webhook URL is refused", {
          details: [
            {
              field: "url",
              message:
                "its host resolves to a non-public address (private, loopback, link-local, cloud metadata or reserved), which is refused",
            },
          ],
        });
      }
      const endpoint = {
        id: `we_${alphanumeric(24)}`,
        url: req.endpoint.url,
        events: req.endpoint.events ?? [...WEBHOOK_EVENT_TYPES],
        ...(req.endpoint.description === undefined ? {} : { description: req.endpoint.description }),
        status: "enabled" as const,
        created_at: NOW,
        secret: newSecret(),
        owner: ownerOf(req.caller),
      };
      endpoints.set(endpoint.id, endpoint);
      return shown(endpoint);
    },
    "notifier.list_endpoints": async (req: { caller: WebhookCaller; limit: number; offset: number }, ctx: { requestId: string }) => {
      record("list_endpoints", req, ctx.requestId);
      const mine = [...endpoints.values()].filter((e) => e.owner === ownerOf(req.caller));
      const page = mine.slice(req.offset, req.offset + req.limit).map(shown);
      return {
        endpoints: page,
        pagination: { total: mine.length, limit: req.limit, offset: req.offset, has_more: req.offset + page.length < mine.length },
      };
    },
    "notifier.get_endpoint": async (req: { caller: WebhookCaller; endpoint_id: string }, ctx: { requestId: string }) => {
      record("get_endpoint", req, ctx.requestId);
      return shown(find(req.caller, req.endpoint_id));
    },
    "notifier.delete_endpoint": async (req: { caller: WebhookCaller; endpoint_id: string }, ctx: { requestId: string }) => {
      record("delete_endpoint", req, ctx.requestId);
      find(req.caller, req.endpoint_id);
      endpoints.delete(req.endpoint_id);
      return { id: req.endpoint_id, deleted: true as const };
    },
    "notifier.rotate_secret": async (req: { caller: WebhookCaller; endpoint_id: string }, ctx: { requestId: string }) => {
      record("rotate_secret", req, ctx.requestId);
      const endpoint = find(req.caller, req.endpoint_id);
      endpoint.secret = newSecret();
      return shown(endpoint);
    },
    "notifier.enable_endpoint": async (req: { caller: WebhookCaller; endpoint_id: string }, ctx: { requestId: string }) => {
      record("enable_endpoint", req, ctx.requestId);
      return shown(find(req.caller, req.endpoint_id));
    },
    "notifier.send_test": async (req: { caller: WebhookCaller; endpoint_id: string }, ctx: { requestId: string }) => {
      record("send_test", req, ctx.requestId);
      find(req.caller, req.endpoint_id);
      return { event_id: `evt_${alphanumeric(24)}`, endpoint_id: req.endpoint_id, type: "webhook.test" as const };
    },
    "notifier.list_deliveries": async (
      req: { caller: WebhookCaller; endpoint_id: string; limit: number; offset: number },
      ctx: { requestId: string },
    ) => {
      record("list_deliveries", req, ctx.requestId);
      find(req.caller, req.endpoint_id);
      return {
        deliveries: [
          {
            event_id: "evt_0123456789abcdef0123",
            event_type: "filing.accepted" as const,
            attempt: 2,
            attempted_at: NOW,
            outcome: "failed" as const,
            status_code: 500,
            duration_ms: 120,
            next_retry_at: "2026-05-01T10:00:30.000Z",
          },
        ],
        pagination: { total: 1, limit: req.limit, offset: req.offset, has_more: false },
      };
    },
  };
  return { received, handlers };
}

describe("webhook endpoints over the bus (a stand-in notifier serves notifier.rpc)", () => {
  let vhost: TestVhost;
  let gw: TestGateway;
  let server: Bus<Record<never, never>, typeof NOTIFIER_RPC_CATALOG>;
  let serving: Subscription;
  const notifier = fakeNotifier();

  const call = (method: "get" | "post" | "delete", path: string, apiKey: string) =>
    request(gw.app)[method](`/api/v1${path}`).set("X-API-Key", apiKey);
  const create = (apiKey: string, body: unknown) => call("post", "/webhook_endpoints", apiKey).send(body as object);
  const asked = () => notifier.received.length;

  beforeAll(async () => {
    vhost = await createTestVhost("gw_webhooks");
    gw = await createTestGateway({ label: "webhooks", amqpUrl: vhost.url });
    server = await connectBus({
      url: vhost.url,
      service: "notifier-test",
      topology: PLATFORM_TOPOLOGY,
      messages: {},
      rpc: NOTIFIER_RPC_CATALOG,
      logger: createLogger({ service: "notifier-test", level: "silent" }),
    });
    serving = await server.rpcServe("notifier.rpc", notifier.handlers);
  });
  afterAll(async () => {
    await serving?.stop();
    await server?.close();
    await gw?.close();
    await vhost?.delete();
  });

  it("creates an endpoint: 201 with the secret, the caller's account, mode and request id travel, no Idempotency-Key", async () => {
    const response = await create(gw.account.liveKey, { url: URL_OF_AGENT, events: ["filing.accepted"], description: "agent hooks" });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^we_[A-Za-z0-9]{24}$/),
        url: URL_OF_AGENT,
        events: ["filing.accepted"],
        description: "agent hooks",
        status: "enabled",
        created_at: NOW,
        secret: expect.stringMatching(WEBHOOK_SECRET_PATTERN),
      },
    });
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
    expect(notifier.received.at(-1)).toEqual({
      type: "create_endpoint",
      request: {
        caller: { account_id: gw.account.accountId, mode: "live", request_id: response.headers["x-request-id"] },
        endpoint: { url: URL_OF_AGENT, events: ["filing.accepted"], description: "agent hooks" },
      },
      requestId: response.headers["x-request-id"],
    });

    const all = await create(gw.account.testKey, { url: URL_OF_AGENT });
    expect(all.status).toBe(201);
    expect(all.body.data.events).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(notifier.received.at(-1)?.request).toEqual({
      caller: { account_id: gw.account.accountId, mode: "test", request_id: all.headers["x-request-id"] },
      endpoint: { url: URL_OF_AGENT },
    });
  });

  it("shows the secret only on creation and rotation, never on reads", async () => {
    const created = (await create(gw.account.liveKey, { url: URL_OF_AGENT })).body.data;
    const read = await call("get", `/webhook_endpoints/${created.id}`, gw.account.liveKey);
    expect(read.status).toBe(200);
    const { secret, ...withoutSecret } = created;
    expect(read.body).toEqual({ success: true, data: withoutSecret });
    const list = await call("get", "/webhook_endpoints", gw.account.liveKey);
    expect(list.status).toBe(200);
    expect(list.body.data.endpoints).toContainEqual(withoutSecret);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");

    const rotated = await call("post", `/webhook_endpoints/${created.id}/rotate_secret`, gw.account.liveKey);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ success: true, data: { ...withoutSecret, secret: expect.stringMatching(WEBHOOK_SECRET_PATTERN) } });
    expect(rotated.body.data.secret).not.toBe(secret);
    expect(JSON.stringify((await call("get", `/webhook_endpoints/${created.id}`, gw.account.liveKey)).body)).not.toContain("whsec_");
  });

  it("lists endpoints and deliveries page by page (limit 20 and offset 0 by default), with the key's mode", async () => {
    const list = await call("get", "/webhook_endpoints?limit=2&offset=1", gw.account.testKey);
    expect(list.status).toBe(200);
    expect(notifier.received.at(-1)).toMatchObject({
      type: "list_endpoints",
      request: {
        caller: { account_id: gw.account.accountId, mode: "test", request_id: list.headers["x-request-id"] },
        limit: 2,
        offset: 1,
      },
    });
    expect(list.body.data.pagination).toMatchObject({ limit: 2, offset: 1 });

    const created = (await create(gw.account.liveKey, { url: URL_OF_AGENT })).body.data;
    const deliveries = await call("get", `/webhook_endpoints/${created.id}/deliveries`, gw.account.liveKey);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data.deliveries).toEqual([
      {
        event_id: "evt_0123456789abcdef0123",
        event_type: "filing.accepted",
        attempt: 2,
        attempted_at: NOW,
        outcome: "failed",
        status_code: 500,
        duration_ms: 120,
        next_retry_at: "2026-05-01T10:00:30.000Z",
      },
    ]);
    expect(notifier.received.at(-1)?.request).toEqual({
      caller: { account_id: gw.account.accountId, mode: "live", request_id: deliveries.headers["x-request-id"] },
      endpoint_id: created.id,
      limit: 20,
      offset: 0,
    });
  });

  it("sends a test event (202), enables (200) and deletes (200) without a body or an Idempotency-Key; then 404 passes through", async () => {
    const created = (await create(gw.account.liveKey, { url: URL_OF_AGENT })).body.data;
    const test = await call("post", `/webhook_endpoints/${created.id}/test`, gw.account.liveKey);
    expect(test.status).toBe(202);
    expect(test.body).toEqual({
      success: true,
      data: { event_id: expect.stringMatching(/^evt_/), endpoint_id: created.id, type: "webhook.test" },
    });
    expect(notifier.received.at(-1)).toMatchObject({ type: "send_test", request: { endpoint_id: created.id } });
    // A body on a route that takes none is not read (whatever its type).
    const withText = await call("post", `/webhook_endpoints/${created.id}/test`, gw.account.liveKey).type("text/plain").send("hello");
    expect(withText.status).toBe(202);
    const enabled = await call("post", `/webhook_endpoints/${created.id}/enable`, gw.account.liveKey);
    expect(enabled.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(enabled.body).toEqual({ success: true, data: withoutSecret });
    expect(notifier.received.at(-1)).toMatchObject({
      type: "enable_endpoint",
      request: {
        endpoint_id: created.id,
        caller: { account_id: gw.account.accountId, mode: "live", request_id: enabled.headers["x-request-id"] },
      },
    });

    const deleted = await call("delete", `/webhook_endpoints/${created.id}`, gw.account.liveKey);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: { id: created.id, deleted: true } });
    for (const header of RATE_LIMIT_HEADERS) expect(deleted.headers[header]).toMatch(/^\d+$/);

    for (const [method, path] of [
      ["get", `/webhook_endpoints/${created.id}`],
      ["delete", `/webhook_endpoints/${created.id}`],
      ["post", `/webhook_endpoints/${created.id}/rotate_secret`],
      ["post", `/webhook_endpoints/${created.id}/enable`],
      ["post", `/webhook_endpoints/${created.id}/test`],
      ["get", `/webhook_endpoints/${created.id}/deliveries`],
    ] as const) {
      const response = await call(method, path, gw.account.liveKey);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body, `${method} ${path}`).toEqual({
        success: false,
        error: { code: "WEBHOOK_ENDPOINT_NOT_FOUND", message: "No webhook endpoint with this id for this API key" },
        request_id: response.headers["x-request-id"],
      });
    }
  });

  it("keeps modes and accounts apart: the caller's account and mode travel, so the notifier refuses the others' endpoints", async () => {
    const created = (await create(gw.account.liveKey, { url: URL_OF_AGENT })).body.data;
    const response = await call("get", `/webhook_endpoints/${created.id}`, gw.account.testKey);
    expect(response.status).toBe(404);
    expect(notifier.received.at(-1)?.request.caller.mode).toBe("test");

    const other = await gw.createAccount({ name: "Other Agency Ltd" });
    const foreign = await call("delete", `/webhook_endpoints/${created.id}`, other.liveKey);
    expect(foreign.status).toBe(404);
    expect(notifier.received.at(-1)?.request.caller).toEqual({
      account_id: other.accountId,
      mode: "live",
      request_id: foreign.headers["x-request-id"],
    });
    expect((await call("get", `/webhook_endpoints/${created.id}`, gw.account.liveKey)).status).toBe(200);
  });

  it("passes the notifier's refusal of a URL through (400 VALIDATION_ERROR with the reason)", async () => {
    const response = await create(gw.account.liveKey, { url: PRIVATE_URL });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: "VALIDATION_ERROR",
      message: "The webhook URL is refused",
      details: [
        {
          field: "url",
          message:
            "its host resolves to a non-public address (private, loopback, link-local, cloud metadata or reserved), which is refused",
        },
      ],
    });
  });

  it("refuses invalid bodies, ids and pages with 400 VALIDATION_ERROR without asking the notifier", async () => {
    const before = asked();
    const cases: Array<{ what: string; response: request.Response; fields: string[] }> = [];
    const bodies: Array<[unknown, string[]]> = [
      [{ url: "ftp://agent.example.com/hooks" }, ["url"]],
      [{ url: "https://user:pw@agent.example.com/hooks" }, ["url"]],
      [{ url: URL_OF_AGENT, events: [] }, ["events"]],
      [{ url: URL_OF_AGENT, events: ["filing.accepted", "filing.accepted"] }, ["events"]],
      [{ url: URL_OF_AGENT, events: ["webhook.test"] }, ["events[0]"]],
      [{ url: URL_OF_AGENT, colour: "red" }, ["colour"]],
      [{ url: `https://agent.example.com/${"a".repeat(2100)}` }, ["url"]],
      [["not", "an", "object"], ["body"]],
    ];
    for (const [body, fields] of bodies) {
      cases.push({ what: `POST ${JSON.stringify(body).slice(0, 80)}`, response: await create(gw.account.liveKey, body), fields });
    }
    cases.push({ what: "POST without a body", response: await call("post", "/webhook_endpoints", gw.account.liveKey), fields: ["body"] });
    for (const [method, path] of [
      ["get", "/webhook_endpoints/we_1"],
      ["delete", "/webhook_endpoints/nope"],
      ["post", "/webhook_endpoints/fil_0123456789abcdef/rotate_secret"],
      ["post", "/webhook_endpoints/we_/enable"],
      ["post", "/webhook_endpoints/we_0123456789abcdef-!/test"],
      ["get", "/webhook_endpoints/we_x/deliveries"],
    ] as const) {
      cases.push({ what: `${method} ${path}`, response: await call(method, path, gw.account.liveKey), fields: ["id"] });
    }
    for (const query of ["limit=0", "offset=-1&page=2"]) {
      const fields = query === "limit=0" ? ["limit"] : ["offset", "page"];
      cases.push({ what: `GET ?${query}`, response: await call("get", `/webhook_endpoints?${query}`, gw.account.liveKey), fields });
    }
    cases.push({
      what: "GET deliveries?limit=101",
      response: await call("get", "/webhook_endpoints/we_0123456789abcdefABCD/deliveries?limit=101", gw.account.liveKey),
      fields: ["limit"],
    });
    for (const { what, response, fields } of cases) {
      expect(response.status, what).toBe(400);
      expect(response.body.error.code, what).toBe("VALIDATION_ERROR");
      expect(response.body.error.details.map((d: { field: string }) => d.field).sort(), what).toEqual(fields.sort());
    }
    const notJson = await call("post", "/webhook_endpoints", gw.account.liveKey).type("text/plain").send("url=x");
    expect(notJson.status).toBe(415);
    expect(asked()).toBe(before);
  });

  it("answers 503 with Retry-After, quickly, once nothing serves notifier.rpc", async () => {
    await serving.stop();
    try {
      for (const [method, path] of [
        ["get", "/webhook_endpoints"],
        ["post", "/webhook_endpoints/we_0123456789abcdefABCD/test"],
      ] as const) {
        const started = Date.now();
        const response = await call(method, path, gw.account.liveKey);
        expect(response.status).toBe(503);
        expect(response.body.error.code).toBe("SERVICE_UNAVAILABLE");
        expect(response.body.error.message).toBe("The webhook service is temporarily unavailable; retry in 30 seconds");
        expect(response.headers["retry-after"]).toBe("30");
        expect(Date.now() - started).toBeLessThan(3000);
      }
    } finally {
      serving = await server.rpcServe("notifier.rpc", notifier.handlers);
    }
  });
});
