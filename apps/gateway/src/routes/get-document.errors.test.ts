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

  it.each(["00000003", "00000004"])("a filing that is not accepted (%s: rejected, error): 400 FILING_NOT_COMPLETE", async (company) => {
    const response = await get(gw.app, `/filings/fil_test_accounts_${company}_0123456789abcdef/documents/accounts_pdf`, gw.account.testKey);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("FILING_NOT_COMPLETE");
  });

  it.each([
    ["part=3", "part", "must be 1 or 2"],
    ["part=two", "part", "must be 1 or 2"],
    ["part=1&part=2", "part", "must be given once, as 1 or 2"],
    ["format=pdf", "format", "is not a known field"],
  ])("?%s: 400 VALIDATION_ERROR", async (query, field, message) => {
    const response = await get(
      gw.app,
      `/filings/fil_test_ct600_00000001_0123456789abcdef/documents/ct600_pdf?${query}`,
      gw.account.testKey,
    );
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("VALIDATION_ERROR");
    expect(response.body.error.details).toEqual([{ field, message }]);
  });
});
