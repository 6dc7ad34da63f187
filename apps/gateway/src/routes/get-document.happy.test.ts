import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// A live accepted filing's bytes come from the filing service (see the bus backend's test); the
// sandbox generates no documents, so its answers are the documented refusals.
describe("GET /filings/{filing_id}/documents/{type} for sandbox filings", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "get_document_happy" });
  });
  afterAll(() => gw?.close());

  it("an accepted sandbox filing: 404 DOCUMENT_NOT_FOUND, sandbox filings have no documents", async () => {
    for (const path of ["fil_test_ct600_00000001_0123456789abcdef/documents/ct600_pdf", "fil_test_accounts_SC000001_0123456789abcdef/documents/ixbrl_accounts"]) {
      const response = await get(gw.app, `/filings/${path}`, gw.account.testKey);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: "DOCUMENT_NOT_FOUND", message: expect.stringContaining("Sandbox") });
    }
  });
});
