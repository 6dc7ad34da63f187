import { Validator } from "@seriousme/openapi-schema-validator";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILING_ERROR_CODES, FilingErrorCode } from "@dormant/contracts";
import { API_ROUTES } from "../routes/index.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";
import { buildOpenApiDocument } from "./document.ts";

const PATHS = [
  "/health",
  "/filings",
  "/filings/ct600",
  "/filings/accounts",
  "/filings/ct600/validate",
  "/filings/accounts/validate",
  "/filings/{filing_id}",
  "/filings/{filing_id}/documents",
  "/filings/{filing_id}/documents/{type}",
  "/account",
  "/companies/{company_number}/deadlines",
  "/openapi.json",
];

const SCHEMAS = [
  "CompanyDeadlines",
  "AccountsPeriodDeadline",
  "Ct600PeriodDeadline",
  "DeadlineFiling",
  "Ct600SubmitRequest",
  "Ct600SubmitResponse",
  "Ct600DerivedValues",
  "Ct600Credentials",
  "AccountsSubmitRequest",
  "AccountsSubmitResponse",
  "AccountsDerivedValues",
  "AccountsCredentials",
  "BalanceSheet",
  "Filing",
  "FilingPart",
  "FilingSummary",
  "FilingsList",
  "Pagination",
  "FilingError",
  "FilingErrorCode",
  "RegistryExamination",
  "RegistryUndecidedStatusCode",
  "FilingStatus",
  "FilingPartStatus",
  "FilingType",
  "DocumentsList",
  "FilingDocument",
  "DocumentType",
  "Health",
  "Error",
  "ErrorEnvelope",
  "ErrorDetail",
  "SandboxSubmitResponse",
  "SandboxFiling",
  "SandboxFilingsList",
  "SandboxDocumentsList",
  "SandboxOutcome",
  "CompanyNumber",
  "Utr",
  "CalendarDate",
  "Period",
  "DeclarantStatus",
  "Account",
  "Ct600ValidationResult",
  "AccountsValidationResult",
  "ValidationProblem",
  "ValidationProblemCode",
  "ValidationCheck",
  "ValidationPart",
];

describe("OpenAPI document", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "openapi" });
  });
  afterAll(() => gw?.close());

  it("is served at /api/v1/openapi.json without a key, as valid OpenAPI 3.1", async () => {
    const response = await request(gw.app).get("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.body.openapi).toBe("3.1.0");
    expect(response.body.info.version).toBe("1.0");
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every endpoint and every schema of the API", () => {
    const document = buildOpenApiDocument(API_ROUTES);
    expect(Object.keys(document.paths ?? {}).sort()).toEqual([...PATHS].sort());
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(expect.arrayContaining(SCHEMAS));
    expect(document.servers).toEqual([{ url: "/api/v1" }]);
  });

  it("asks for the API key everywhere but health and itself, and for an Idempotency-Key on submits (not on validation)", () => {
    const document = buildOpenApiDocument(API_ROUTES);
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      (["get", "post"] as const).filter((m) => item[m]).map((m) => ({ path, method: m, operation: item[m]! })),
    );
    for (const { path, method, operation } of operations) {
      const open = path === "/health" || path === "/openapi.json";
      expect(operation.security, `${method} ${path}`).toEqual(open ? undefined : [{ ApiKeyAuth: [] }]);
      const headers = (operation.parameters ?? []).filter((p) => "in" in p && p.in === "header").map((p) => ("name" in p ? p.name : ""));
      const submit = method === "post" && !path.endsWith("/validate");
      expect(headers, `${method} ${path}`).toEqual(submit ? ["Idempotency-Key"] : []);
    }
    expect(document.components?.securitySchemes?.ApiKeyAuth).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
  });

  it("documents every error code and the sandbox table", () => {
    const description = buildOpenApiDocument(API_ROUTES).info.description ?? "";
    for (const text of [
      "VALIDATION_ERROR",
      "IDEMPOTENCY_KEY_CONFLICT",
      "SERVICE_UNAVAILABLE",
      "TAX_UTR_MISMATCH",
      "NI000002",
      "00000005",
    ]) {
      expect(description).toContain(text);
    }
  });

  it("documents every filing error code, REGISTRY_NO_DECISION apart from GATEWAY_TIMEOUT, and the registry's examination of submitted accounts", () => {
    const document = buildOpenApiDocument(API_ROUTES);
    const description = document.info.description ?? "";
    for (const code of FilingErrorCode.options) expect(description).toContain(`| \`${code}\` | ${FILING_ERROR_CODES[code].status} |`);
    expect(description).toMatch(/\| `REGISTRY_NO_DECISION` \| error \| The registry held the accounts undecided/);
    const schemas = document.components?.schemas ?? {};
    expect(schemas.FilingErrorCode).toMatchObject({ enum: expect.arrayContaining(["REGISTRY_NO_DECISION", "GATEWAY_TIMEOUT"]) });
    expect(schemas.RegistryUndecidedStatusCode).toMatchObject({ enum: ["PENDING", "PARKED"] });
    expect(schemas.Filing).toMatchObject({ properties: { registry_examination: expect.anything() } });
    expect(schemas.RegistryExamination).toMatchObject({ required: expect.arrayContaining(["status_code", "since"]) });
  });
});
