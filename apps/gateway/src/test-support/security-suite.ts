import type { Express } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseApiKey } from "../keys/format.ts";
import { revokeApiKey } from "../keys/revoke.ts";
import type { Route } from "../routes/route.ts";
import { captureLogs } from "./captured-logs.ts";
import { ct600Body, idempotencyKey, RATE_LIMIT_HEADERS, submit } from "./requests.ts";
import { createTestGateway, type TestGateway } from "./test-gateway.ts";

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
 * authenticated answer, the modes' filings kept apart (routes about one filing), and what never
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
  /** A valid request of this key's mode (a filing of that mode where the route reads one). */
  const valid = (apiKey: string, extra: Partial<Call> = {}) =>
    send(gw.app, apiKey, { filingId: apiKey.startsWith("api_live_") ? LIVE_FILING_ID : sandboxFilingId, ...extra });
  const invalid = (apiKey: string, extra: Partial<Call> = {}) =>
    send(gw.app, apiKey, { filingId: sandboxFilingId, invalid: true, ...extra });
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
