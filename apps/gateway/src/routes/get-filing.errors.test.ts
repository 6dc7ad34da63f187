import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id} errors", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "get_filing_errors" });
  });
  afterAll(() => gw?.close());

  it.each([
    "fil_test_ct600_00000001",
    "fil_test_vat_00000001_0123456789abcdef",
    "fil_test_ct600_0000001_0123456789abcdef",
    "fil_test_ct600_00000001_0123456789ABCDEF",
    "fil_test_ct600_00000001_0123456789abcdef0",
    "something-else",
  ])("a test key and an id that is no sandbox id (%s): 404 FILING_NOT_FOUND", async (filingId) => {
    const response = await get(gw.app, `/filings/${encodeURIComponent(filingId)}`, gw.account.testKey);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      success: false,
      error: { code: "FILING_NOT_FOUND" },
      request_id: response.headers["x-request-id"],
    });
  });

  it("a live key and an id that is no filing id: 404 at once, without asking the filing service", async () => {
    const response = await get(gw.app, "/filings/not-a-filing", gw.account.liveKey);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("FILING_NOT_FOUND");
  });

  it("a live key and a live id while nothing serves filing.rpc: 503 with Retry-After", async () => {
    const response = await get(gw.app, "/filings/fil_2b9d6f0c4a8e4d3f", gw.account.liveKey);
    expect(response.status).toBe(503);
    expect(response.headers["retry-after"]).toBe("30");
    expect(response.body.error.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("an id longer than any filing id: 400 VALIDATION_ERROR on the path", async () => {
    const response = await get(gw.app, `/filings/fil_${"a".repeat(200)}`, gw.account.testKey);
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: "filing_id", message: expect.any(String) }]);
  });
});
