import type { Express } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseApiKey } from "../keys/format.ts";
import { revokeApiKey } from "../keys/revoke.ts";
import type { Route } from "../routes/route.ts";
import { captureLogs } from "./captured-logs.ts";
import { ct600Body, idempotencyKey, RATE_LIMIT_HEADERS, submit } from "./requests.ts";
import { createTestGateway, type TestGateway } from "./test-gateway.ts";
import { awaitRoomInMinute } from "./test-env.ts";

/** How to call one authenticated route: what the suite cannot read from the route itself. */
export interface SecuredRouteCalls {
  /** Path parameters other than `filing_id` (e.g. a document `type`, a webhook endpoint `id`). */
  params?: Record<string, string>;
  /** A valid body (submits). */
  body?: () => Record<string, unknown>;
  /** A request the route refuses as invalid (an unknown query parameter, a bad path value, a bad body). */
  invalid?: { query?: string; params?: Record<string, string>; body?: Record<string, unknown> };
  /** What the valid and invalid bodies carry that must never reach the log (passwords, auth codes). */
  secrets?: readonly string[];
}

/** A live filing id nobody serves (nothing answers filing.rpc in the tests' shared vhost). */
const LIVE_FILING_ID = "fil_2b9d6f0c4a8e4d3f";
/** A key of the right shape that was never issued. */
const UNKNOWN_KEY = `api_test_${"A".repeat(16)}_${"B".repeat(43)}`;

interface Call {
  filingId: string;
  invalid?: boolean;
  idempotencyKey?: string;
}

function keyIdOf(apiKey: string): string {
  const parsed = parseApiKey(apiKey);
  if (!parsed) throw new Error("the test account's key does not parse");
  return parsed.keyId;
}

/**
 * The security behaviour every authenticated route shares, run against the app as production
 * wires it: no key, a malformed, forged, unknown or revoked key, the rate-limit headers on every
 * authenticated answer, the account-wide limit across keys (and the validation limit on the
 * validate-only routes) refusing with 429, the modes' filings kept apart (routes about one filing), and what never
 * reaches the log. Each route gets its own gateway, database and captured log.
 */
export function describeSecuritySuite(route: Route, calls: SecuredRouteCalls): void {
  const { method, path } = route.openapi;
  const readsFiling = path.includes("{filing_id}");
  const logs = captureLogs();
  let gw: TestGateway;
  /** A sandbox filing of the test key (a CT600 of 00000001: accepted, with documents). */
  let sandboxFilingId: string;

  const pathFor = ({ filingId, invalid }: Call) => {
    const values: Record<string, string> = { filing_id: filingId, ...calls.params, ...(invalid ? calls.invalid?.params : {}) };
    const filled = path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ""));
    return `/api/v1${filled}${invalid && calls.invalid?.query ? `?${calls.invalid.query}` : ""}`;
  };
  const send = (app: Express, apiKey: string, call: Call) => {
    const path = pathFor(call);
    const sent = method === "post" ? request(app).post(path) : method === "delete" ? request(app).delete(path) : request(app).get(path);
    const test = sent.set("X-API-Key", apiKey).set("Idempotency-Key", call.idempotencyKey ?? idempotencyKey());
    const body = call.invalid ? calls.invalid?.body : calls.body?.();
    return body === undefined ? test : test.send(body);
  };
  /** A valid request of this key's mode (a filing of that mode where the route reads one), to `app` (the suite's gateway unless told). */
  const valid = (apiKey: string, extra: Partial<Call> = {}, app: Express = gw.app) =>
    send(app, apiKey, { filingId: apiKey.startsWith("api_live_") ? LIVE_FILING_ID : sandboxFilingId, ...extra });
  const invalid = (apiKey: string, extra: Partial<Call> = {}, app: Express = gw.app) =>
    send(app, apiKey, { filingId: sandboxFilingId, invalid: true, ...extra });
  const hasInvalid = calls.invalid !== undefined;

  // Each route's suite has its own gateway, database, Redis prefix and captured log, so the routes'
  // suites run concurrently (their set-up is most of the time); within one route the tests run in
  // turn, since the log tests read what the earlier ones logged.
  describe.concurrent(`${method.toUpperCase()} ${path} security`, () => {
    beforeAll(async () => {
      gw = await createTestGateway({ label: `security_${route.openapi.operationId ?? "route"}`, logger: logs.logger });
      const submitted = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
      expect(submitted.status).toBe(202);
      sandboxFilingId = submitted.body.data.filing_id;
    });
    afterAll(() => gw?.close());

    it.sequential("needs a key before the request is even looked at: 401 AUTH_REQUIRED", async () => {
      for (const response of [await valid(""), ...(hasInvalid ? [await invalid("")] : [])]) {
        expect(response.status).toBe(401);
        expect(response.body.error.code).toBe("AUTH_REQUIRED");
      }
    });

    it.sequential("refuses a malformed, forged or unknown key: 401 INVALID_KEY", async () => {
      for (const key of ["api_live_nope", `${gw.account.testKey.slice(0, -4)}AAAA`, UNKNOWN_KEY]) {
        const response = await valid(key);
        expect(response.status, key).toBe(401);
        expect(response.body.error.code, key).toBe("INVALID_KEY");
      }
    });

    it.sequential("refuses a revoked key of either mode: 401 INVALID_KEY", async () => {
      const revoked = await gw.createAccount();
      for (const key of [revoked.liveKey, revoked.testKey]) {
        expect(await revokeApiKey(gw.db, keyIdOf(key))).not.toBeNull();
        const response = await valid(key);
        expect(response.status).toBe(401);
        expect(response.body.error.code).toBe("INVALID_KEY");
      }
    });

    it.sequential("carries the X-RateLimit-* headers on every answer to a valid key of both modes, errors included", async () => {
      for (const key of [gw.account.liveKey, gw.account.testKey]) {
        for (const response of [await valid(key), ...(hasInvalid ? [await invalid(key)] : [])]) {
          for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
        }
      }
    });

    // The limits per account (extensions; docs/operations/tenant-fairness.md §2), each on a fresh
    // account so the other tests' requests do not count: a refusal is what is proved, not only
    // the headers. Each costs a handful of requests, so it runs on every route, not per kind.
    it.sequential("refuses past the account's per-minute limit through any of its keys: 429 RATE_LIMIT_EXCEEDED, the key's own headers", async () => {
      const limited = await gw.createAccount({ rateLimitPerMinute: 2 });
      const otherKey = await gw.issueKey(limited.accountId, "live");
      await awaitRoomInMinute(gw.redis);
      for (const remaining of ["1", "0"]) {
        const spent = await valid(limited.liveKey);
        expect(spent.status).not.toBe(429);
        expect(spent.headers["x-ratelimit-remaining-minute"]).toBe(remaining);
      }
      const refused = await valid(otherKey);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", message: expect.stringContaining("across all its keys") });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      // The spec's headers stay the key's: this key has sent nothing, so its own window is untouched.
      expect(refused.headers).toMatchObject({ "x-ratelimit-limit-minute": "2", "x-ratelimit-remaining-minute": "2" });
      // The account's test keys are counted apart.
      expect((await valid(limited.testKey)).status).not.toBe(429);
    });

    it.runIf(route.kind === "check").sequential(
      "refuses past the account's validation limit through any of its keys: 429 RATE_LIMIT_EXCEEDED",
      async () => {
        // A replica with a small validation limit (a gateway-wide setting), on the suite's Redis.
        const app = await gw.replica({ validationLimits: { perMinute: 2, perDay: 100 } });
        const account = await gw.createAccount();
        const otherKey = await gw.issueKey(account.accountId, "live");
        await awaitRoomInMinute(gw.redis);
        // Invalid bodies count too (answered with a report): the validation limit comes before the body is read.
        for (let spent = 0; spent < 2; spent++) expect((await invalid(account.liveKey, {}, app)).status).not.toBe(429);
        const refused = await valid(otherKey, {}, app);
        expect(refused.status).toBe(429);
        expect(refused.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", message: expect.stringContaining("validation limit") });
        expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
        // The request limits counted it and have room: the headers are the key's, not the validation limit's.
        expect(Number(refused.headers["x-ratelimit-remaining-minute"])).toBe(Number(refused.headers["x-ratelimit-limit-minute"]) - 1);
        expect(Number(refused.headers["x-ratelimit-limit-minute"])).toBeGreaterThan(2);
        expect((await invalid(account.testKey, {}, app)).status).not.toBe(429);
      },
    );

    it.runIf(readsFiling).sequential("never shows a filing of the other mode: 404 FILING_NOT_FOUND", async () => {
      const sandboxToLive = await send(gw.app, gw.account.liveKey, { filingId: sandboxFilingId });
      expect(sandboxToLive.status).toBe(404);
      expect(sandboxToLive.body.error.code).toBe("FILING_NOT_FOUND");
      for (const header of RATE_LIMIT_HEADERS) expect(sandboxToLive.headers[header]).toMatch(/^\d+$/);
      const liveToTest = await send(gw.app, gw.account.testKey, { filingId: LIVE_FILING_ID });
      expect(liveToTest.status).toBe(404);
      expect(liveToTest.body.error.code).toBe("FILING_NOT_FOUND");
    });

    it.sequential("never logs an API key, the Idempotency-Key or a secret of the request", async () => {
      const key = idempotencyKey();
      await valid(gw.account.testKey, { idempotencyKey: key });
      await valid(gw.account.liveKey, { idempotencyKey: key });
      if (hasInvalid) await invalid(gw.account.liveKey, { idempotencyKey: key });
      const text = logs.text();
      expect(text).toContain("request completed");
      expect(text).toContain(method.toUpperCase());
      for (const secret of [gw.account.testKey, gw.account.liveKey, key, ...(calls.secrets ?? [])]) expect(text).not.toContain(secret);
    });

    it.sequential("puts the request id on every log line of a request", async () => {
      const response = await valid(gw.account.liveKey);
      const lines = logs
        .text()
        .trim()
        .split("\n")
        .map((line): { request_id?: unknown; msg?: unknown } => JSON.parse(line));
      const ours = lines.filter((line) => line.request_id === response.headers["x-request-id"]);
      // A live request while nothing serves filing.rpc or billing.rpc: 503, logged as failed.
      expect(ours.map((line) => line.msg)).toEqual(["request failed", "request errored"]);
      const accessLines = lines.filter((line) => line.msg === "request completed" || line.msg === "request errored");
      expect(accessLines.length).toBeGreaterThan(5);
      expect(accessLines.every((line) => typeof line.request_id === "string")).toBe(true);
    });
  });
}
