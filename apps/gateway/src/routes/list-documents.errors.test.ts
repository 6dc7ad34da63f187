import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id}/documents errors", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "list_documents_errors" });
  });
  afterAll(() => gw?.close());

  it.each(["00000002", "00000003", "00000004", "SC000002", "NI000002"])(
    "a sandbox filing of %s (not accepted): 400 FILING_NOT_COMPLETE",
    async (company) => {
      const response = await get(gw.app, `/filings/fil_test_ct600_${company}_0123456789abcdef/documents`, gw.account.testKey);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("FILING_NOT_COMPLETE");
    },
  );

  it("an unknown id: 404 FILING_NOT_FOUND", async () => {
    const response = await get(gw.app, "/filings/fil_test_ct600_nope/documents", gw.account.testKey);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("FILING_NOT_FOUND");
  });
});
