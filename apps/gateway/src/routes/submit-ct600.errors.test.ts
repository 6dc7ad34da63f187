import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ct600Body, idempotencyKey, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const credentials = { government_gateway_id: "GW-USER-1", government_gateway_password: "pw" };

/** [what, body, the field paths the 400 must name] */
const INVALID: Array<[string, Record<string, unknown>, string[]]> = [
  ["company_number missing", ct600Body({ company_number: undefined }), ["company_number"]],
  ["company_number of 7 characters", ct600Body({ company_number: "0000001" }), ["company_number"]],
  ["company_number in lower case", ct600Body({ company_number: "sc000001" }), ["company_number"]],
  ["company_number a number", ct600Body({ company_number: 1 }), ["company_number"]],
  ["utr missing", ct600Body({ utr: undefined }), ["utr"]],
  ["utr of 9 digits", ct600Body({ utr: "123456789" }), ["utr"]],
  ["utr with a letter", ct600Body({ utr: "12345678X0" }), ["utr"]],
  ["period_end missing", ct600Body({ period_end: undefined }), ["period_end"]],
  ["period_end not a date", ct600Body({ period_end: "31/03/2024" }), ["period_end"]],
  ["period_end not a real day", ct600Body({ period_end: "2023-02-29" }), ["period_end"]],
  ["company not an object", ct600Body({ company: "Acme" }), ["company"]],
  ["company.name too long", ct600Body({ company: { name: "x".repeat(57) } }), ["company.name"]],
  ["company.name too short", ct600Body({ company: { name: "x" } }), ["company.name"]],
  ["company.name with a forbidden character", ct600Body({ company: { name: "Acme £ Ltd" } }), ["company.name"]],
  ["company with an unknown field", ct600Body({ company: { number: "1" } }), ["company.number"]],
  ["period.start not a real day", ct600Body({ period: { start: "2023-04-31" } }), ["period.start"]],
  ["period.start after period_end", ct600Body({ period: { start: "2024-04-01" } }), ["period.start"]],
  ["declarant.name too long", ct600Body({ declarant: { name: "y".repeat(57) } }), ["declarant.name"]],
  ["declarant.status not in the list", ct600Body({ declarant: { status: "Owner" } }), ["declarant.status"]],
  ["credentials missing", ct600Body({ credentials: undefined }), ["credentials"]],
  [
    "credentials.government_gateway_id missing",
    ct600Body({ credentials: { government_gateway_password: "pw" } }),
    ["credentials.government_gateway_id"],
  ],
  [
    "credentials.government_gateway_password missing",
    ct600Body({ credentials: { government_gateway_id: "u" } }),
    ["credentials.government_gateway_password"],
  ],
  [
    "credentials.government_gateway_password empty",
    ct600Body({ credentials: { ...credentials, government_gateway_password: "" } }),
    ["credentials.government_gateway_password"],
  ],
  [
    "credentials.government_gateway_password too long",
    ct600Body({ credentials: { ...credentials, government_gateway_password: "p".repeat(129) } }),
    ["credentials.government_gateway_password"],
  ],
  ["credentials with an unknown field", ct600Body({ credentials: { ...credentials, pin: "1" } }), ["credentials.pin"]],
  ["an unknown top-level field", ct600Body({ vat_number: "GB1" }), ["vat_number"]],
];

describe("POST /filings/ct600 validation (live and sandbox alike)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "ct600_errors" });
  });
  afterAll(() => gw?.close());

  it.each(INVALID)("%s: 400 VALIDATION_ERROR naming the field, for both keys", async (_what, body, fields) => {
    for (const key of [gw.account.liveKey, gw.account.testKey]) {
      const response = await submit(gw.app, "ct600", key, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        success: false,
        error: { code: "VALIDATION_ERROR" },
        request_id: response.headers["x-request-id"],
      });
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
    }
  });

  it("lists every violated field in one answer", async () => {
    const response = await submit(gw.app, "ct600", gw.account.testKey, {
      company_number: "123",
      utr: "abc",
      period_end: "2024-13-01",
      declarant: { status: "Boss" },
      credentials: { government_gateway_id: "" },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        "company_number",
        "credentials.government_gateway_id",
        "credentials.government_gateway_password",
        "declarant.status",
        "period_end",
        "utr",
      ].sort(),
    );
  });

  it("requires an Idempotency-Key of at most 64 printable characters, reported with the body's problems", async () => {
    for (const key of [gw.account.liveKey, gw.account.testKey]) {
      const missing = await submit(gw.app, "ct600", key, ct600Body(), null);
      expect(missing.status).toBe(400);
      expect(missing.body.error.details).toEqual([{ field: "Idempotency-Key", message: expect.any(String) }]);
      const long = await submit(gw.app, "ct600", key, ct600Body({ utr: "1" }), "k".repeat(65));
      expect(long.status).toBe(400);
      expect(long.body.error.details.map((d: { field: string }) => d.field)).toEqual(["Idempotency-Key", "utr"]);
      expect((await submit(gw.app, "ct600", key, ct600Body({ utr: "1" }), "k".repeat(64))).body.error.details).toHaveLength(1);
    }
  });

  it("never echoes a submitted secret in an error", async () => {
    const response = await submit(
      gw.app,
      "ct600",
      gw.account.testKey,
      ct600Body({ credentials: { government_gateway_password: 12345678901 } }),
    );
    expect(response.status).toBe(400);
    expect(response.text).not.toContain("12345678901");
  });

  it("answers a live submit 503 SERVICE_UNAVAILABLE with Retry-After at once while nothing serves filing.rpc", async () => {
    const started = Date.now();
    const response = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body());
    expect(Date.now() - started).toBeLessThan(3000);
    expect(response.status).toBe(503);
    expect(response.headers["retry-after"]).toBe("30");
    expect(response.body).toMatchObject({
      success: false,
      error: { code: "SERVICE_UNAVAILABLE" },
      request_id: response.headers["x-request-id"],
    });
    expect(response.text).not.toContain("filing.rpc");
  });

  it("keeps neither a 400 nor a 503 under the Idempotency-Key: the key stays usable with another body", async () => {
    const key = idempotencyKey();
    expect((await submit(gw.app, "ct600", gw.account.liveKey, ct600Body({ utr: "bad" }), key)).status).toBe(400);
    expect((await submit(gw.app, "ct600", gw.account.liveKey, ct600Body(), key)).status).toBe(503);
    const other = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body({ utr: "0987654321" }), key);
    expect(other.status).toBe(503);
  });
});
