import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id}/documents/{type} security", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "get_document_security" });
  });
  afterAll(() => gw?.close());

  it("needs a key, and keeps the modes apart", async () => {
    const path = "/filings/fil_test_ct600_00000001_0123456789abcdef/documents/ct600_pdf";
    expect((await get(gw.app, path, "")).status).toBe(401);
    const live = await get(gw.app, path, gw.account.liveKey);
    expect(live.status).toBe(404);
    expect(live.body.error.code).toBe("FILING_NOT_FOUND");
  });
});
