import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ct600Body, get, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings with a test key (sandbox)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "list_filings_happy" });
  });
  afterAll(() => gw?.close());

  it("answers the documented empty list, even after sandbox submits and whatever the paging asked", async () => {
    await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    for (const query of ["", "?limit=5&offset=10", "?status=accepted&type=ct600&company_number=00000001"]) {
      const response = await get(gw.app, `/filings${query}`, gw.account.testKey);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          filings: [],
          pagination: { total: 0, limit: 50, offset: 0, has_more: false },
          sandbox: true,
          message: expect.stringMatching(/stateless/),
        },
      });
      for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
    }
  });
});
