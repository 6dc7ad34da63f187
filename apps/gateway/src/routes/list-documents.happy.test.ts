import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsBody, ct600Body, get, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id}/documents for sandbox filings", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "list_documents_happy" });
  });
  afterAll(() => gw?.close());

  it("lists no documents for an accepted sandbox filing of either type, saying why", async () => {
    for (const [type, body] of [["ct600", ct600Body()], ["accounts", accountsBody({ company_number: "00000005" })]] as const) {
      const filingId = (await submit(gw.app, type, gw.account.testKey, body)).body.data.filing_id;
      const response = await get(gw.app, `/filings/${filingId}/documents`, gw.account.testKey);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: { filing_id: filingId, documents: [], sandbox: true, message: expect.stringContaining("no documents") },
      });
    }
  });
});
