import { SandboxDocumentsList } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsBody, ct600Body, get, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /filings/{filing_id}/documents for sandbox filings", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "list_documents_happy" });
  });
  afterAll(() => gw?.close());

  it("lists the sample documents of an accepted sandbox filing's type, saying what they are", async () => {
    for (const [type, body, expected] of [
      ["ct600", ct600Body(), ["ct600_pdf", "ct600_xml"]],
      ["accounts", accountsBody({ company_number: "00000005" }), ["ixbrl_accounts", "accounts_pdf"]],
    ] as const) {
      const filingId = (await submit(gw.app, type, gw.account.testKey, body)).body.data.filing_id;
      const response = await get(gw.app, `/filings/${filingId}/documents`, gw.account.testKey);
      expect(response.status).toBe(200);
      expect(SandboxDocumentsList.parse(response.body.data)).toEqual(response.body.data);
      expect(response.body.data).toMatchObject({ filing_id: filingId, sandbox: true, message: expect.stringContaining("SANDBOX") });
      expect(response.body.data.documents.map((d: { type: string }) => d.type)).toEqual(expected);
      for (const document of response.body.data.documents) {
        expect(document).toEqual({
          type: document.type,
          name: expect.stringMatching(new RegExp(`^${filingId}-`)),
          size_bytes: expect.any(Number),
          generated_at: "2026-05-01T09:00:00.000Z",
        });
        expect(document.size_bytes).toBeGreaterThan(1000);
      }
      // Stateless: the same id lists the same documents again.
      expect((await get(gw.app, `/filings/${filingId}/documents`, gw.account.testKey)).body).toEqual(response.body);
    }
  });
});
