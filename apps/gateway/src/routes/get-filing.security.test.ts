import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ct600Body, get, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id} security", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "get_filing_security" });
  });
  afterAll(() => gw?.close());

  it("needs a key", async () => {
    const response = await get(gw.app, "/filings/fil_test_ct600_00000001_0123456789abcdef", "");
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("AUTH_REQUIRED");
  });

  it("never shows a sandbox filing to a live key", async () => {
    const submitted = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    const response = await get(gw.app, `/filings/${submitted.body.data.filing_id}`, gw.account.liveKey);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("FILING_NOT_FOUND");
  });

  it("never takes a test key to the live filings", async () => {
    const response = await get(gw.app, "/filings/fil_2b9d6f0c4a8e4d3f", gw.account.testKey);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("FILING_NOT_FOUND");
  });
});
