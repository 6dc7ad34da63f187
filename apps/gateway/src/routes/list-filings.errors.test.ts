import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings query validation (live and sandbox alike)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "list_filings_errors" });
  });
  afterAll(() => gw?.close());

  it.each([
    ["?status=done", ["status"]],
    ["?type=vat", ["type"]],
    ["?company_number=123", ["company_number"]],
    ["?limit=0", ["limit"]],
    ["?limit=101", ["limit"]],
    ["?limit=ten", ["limit"]],
    ["?limit=1&limit=2", ["limit"]],
    ["?offset=-1", ["offset"]],
    ["?offset=1.5", ["offset"]],
    ["?sort=newest", ["sort"]],
    ["?status=x&limit=500&offset=-3", ["status", "limit", "offset"]],
  ])("%s: 400 VALIDATION_ERROR naming %j, for both keys", async (query, fields) => {
    for (const key of [gw.account.liveKey, gw.account.testKey]) {
      const response = await get(gw.app, `/filings${query}`, key);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_ERROR");
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
    }
  });

  it("accepts the limits' edges", async () => {
    for (const query of ["?limit=1", "?limit=100&offset=0", "?offset=100000"]) {
      expect((await get(gw.app, `/filings${query}`, gw.account.testKey)).status).toBe(200);
    }
  });

  it("a live key while nothing serves filing.rpc: 503 with Retry-After", async () => {
    const response = await get(gw.app, "/filings?limit=10", gw.account.liveKey);
    expect(response.status).toBe(503);
    expect(response.headers["retry-after"]).toBe("30");
  });
});
