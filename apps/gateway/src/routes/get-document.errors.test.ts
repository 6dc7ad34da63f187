import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id}/documents/{type} errors", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "get_document_errors" });
  });
  afterAll(() => gw?.close());

  it("a document type that does not exist: 400 VALIDATION_ERROR on type", async () => {
    const response = await get(gw.app, "/filings/fil_test_ct600_00000001_0123456789abcdef/documents/vat_pdf", gw.account.testKey);
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: "type", message: expect.any(String) }]);
  });

  it("a type of the other filing type: 404 DOCUMENT_NOT_FOUND", async () => {
    const response = await get(gw.app, "/filings/fil_test_ct600_00000001_0123456789abcdef/documents/accounts_pdf", gw.account.testKey);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("DOCUMENT_NOT_FOUND");
  });

  it("a filing that is not accepted: 400 FILING_NOT_COMPLETE", async () => {
    const response = await get(gw.app, "/filings/fil_test_accounts_00000003_0123456789abcdef/documents/accounts_pdf", gw.account.testKey);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("FILING_NOT_COMPLETE");
  });
});
