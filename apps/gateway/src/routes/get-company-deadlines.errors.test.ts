import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, RATE_LIMIT_HEADERS } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /companies/{company_number}/deadlines errors", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "company_deadlines_errors" });
  });
  afterAll(() => gw?.close());

  it.each(["0000001", "000000011", "sc000001", "SC00000%21", "00000 01"])(
    "%s: 400 VALIDATION_ERROR on company_number, for both keys",
    async (number) => {
      for (const key of [gw.account.liveKey, gw.account.testKey]) {
        const response = await get(gw.app, `/companies/${number}/deadlines`, key);
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe("VALIDATION_ERROR");
        expect(response.body.error.details).toEqual([{ field: "company_number", message: expect.any(String) }]);
        for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
      }
    },
  );

  it("refuses query parameters", async () => {
    const response = await get(gw.app, "/companies/00000001/deadlines?at=2024-01-01", gw.account.testKey);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual(["at"]);
  });

  it("a live key while nothing serves filing.rpc: 503 with Retry-After", async () => {
    const response = await get(gw.app, "/companies/00000001/deadlines", gw.account.liveKey);
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(response.headers["retry-after"]).toBe("30");
  });
});
