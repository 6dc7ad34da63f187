import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_COMPANIES } from "@dormant/contracts";
import { ct600Body, idempotencyKey, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("POST /filings/ct600 with a test key (sandbox)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "ct600_happy" });
  });
  afterAll(() => gw?.close());

  it("answers 202 submitted with a sandbox filing id, the expected outcome and the request id", async () => {
    const response = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      success: true,
      data: {
        filing_id: expect.stringMatching(/^fil_test_ct600_00000001_[0-9a-f]{16}$/),
        status: "submitted",
        sandbox: true,
        message: expect.stringContaining("Poll GET /api/v1/filings/fil_test_ct600_00000001_"),
        expected_outcome: "accepted",
      },
      request_id: response.headers["x-request-id"],
    });
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
  });

  it("accepts every override", async () => {
    const body = ct600Body({
      company: { name: "Acme Dormant Ltd" },
      period: { start: "2023-04-01" },
      declarant: { name: "Ada Lovelace", status: "Director" },
    });
    expect((await submit(gw.app, "ct600", gw.account.testKey, body)).status).toBe(202);
  });

  it("derives the id from Idempotency-Key and body: same pair same id, any change another id, never a conflict", async () => {
    const key = idempotencyKey();
    const first = await submit(gw.app, "ct600", gw.account.testKey, ct600Body(), key);
    const again = await submit(gw.app, "ct600", gw.account.testKey, ct600Body(), key);
    const reordered = await submit(gw.app, "ct600", gw.account.testKey, Object.fromEntries(Object.entries(ct600Body()).reverse()), key);
    const otherBody = await submit(gw.app, "ct600", gw.account.testKey, ct600Body({ utr: "0987654321" }), key);
    const otherKey = await submit(gw.app, "ct600", gw.account.testKey, ct600Body(), idempotencyKey());
    const otherPassword = await submit(
      gw.app,
      "ct600",
      gw.account.testKey,
      ct600Body({ credentials: { government_gateway_id: "GW-USER-1", government_gateway_password: "another one" } }),
      key,
    );
    for (const response of [first, again, reordered, otherBody, otherKey, otherPassword]) expect(response.status).toBe(202);
    const id = first.body.data.filing_id;
    expect(again.body.data.filing_id).toBe(id);
    expect(reordered.body.data.filing_id).toBe(id);
    expect(new Set([id, otherBody.body.data.filing_id, otherKey.body.data.filing_id, otherPassword.body.data.filing_id]).size).toBe(4);
  });

  it("announces the outcome of each company of the sandbox table, and accepted for any other", async () => {
    for (const [company, scenario] of [...Object.entries(SANDBOX_COMPANIES), ["AB123456", { outcome: "accepted" }] as const]) {
      const response = await submit(gw.app, "ct600", gw.account.testKey, ct600Body({ company_number: company }));
      expect(response.status).toBe(202);
      expect(response.body.data).toMatchObject({ status: "submitted", sandbox: true, expected_outcome: scenario.outcome });
      expect(response.body.data.filing_id).toMatch(new RegExp(`^fil_test_ct600_${company}_[0-9a-f]{16}$`));
    }
  });

  it("says that 00000005 needs no waiting", async () => {
    const response = await submit(gw.app, "ct600", gw.account.testKey, ct600Body({ company_number: "00000005" }));
    expect(response.body.data.message).toContain("immediate");
  });
});
