import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, RATE_LIMIT_HEADERS } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id}/documents security", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "list_documents_security" });
  });
  afterAll(() => gw?.close());

  it("needs a key", async () => {
    expect((await get(gw.app, "/filings/fil_test_ct600_00000001_0123456789abcdef/documents", "")).status).toBe(401);
  });

  it("never lists a sandbox filing's documents to a live key, nor a live filing's to a test key", async () => {
    const sandbox = await get(gw.app, "/filings/fil_test_ct600_00000001_0123456789abcdef/documents", gw.account.liveKey);
    expect(sandbox.status).toBe(404);
    expect(sandbox.body.error.code).toBe("FILING_NOT_FOUND");
    for (const header of RATE_LIMIT_HEADERS) expect(sandbox.headers[header]).toMatch(/^\d+$/);
    const live = await get(gw.app, "/filings/fil_2b9d6f0c4a8e4d3f/documents", gw.account.testKey);
    expect(live.status).toBe(404);
  });
});
