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
  "/webhook_endpoints",
  "/webhook_endpoints/{id}",
  "/webhook_endpoints/{id}/rotate_secret",
  "/webhook_endpoints/{id}/enable",
  "/webhook_endpoints/{id}/test",
  "/webhook_endpoints/{id}/deliveries",
  "/openapi.json",
];

/** The filings' submits: the only operations with an Idempotency-Key. */
const SUBMITS = ["/filings/ct600", "/filings/accounts"];

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
  "CreateWebhookEndpointRequest",
  "WebhookEndpoint",
  "WebhookEndpointWithSecret",
  "WebhookEndpointStatus",
  "WebhookEndpointsList",
  "WebhookEndpointDeleted",
  "WebhookTestSent",
  "WebhookDeliveriesList",
  "WebhookDeliveryAttempt",
  "WebhookEventType",
  "DeliveredEventType",
  "WebhookEvent",
  "WebhookTestData",
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

  it("asks for the API key everywhere but health and itself, and for an Idempotency-Key on submits only (not on validation or webhook endpoints)", () => {
    const document = buildOpenApiDocument(API_ROUTES);
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      (["get", "post", "delete", "put", "patch"] as const).filter((m) => item[m]).map((m) => ({ path, method: m, operation: item[m]! })),
    );
    expect(operations.filter(({ method }) => method === "delete").map(({ path }) => path)).toEqual(["/webhook_endpoints/{id}"]);
    expect(operations.filter(({ method }) => method === "put" || method === "patch")).toEqual([]);
    for (const { path, method, operation } of operations) {
      const open = path === "/health" || path === "/openapi.json";
      expect(operation.security, `${method} ${path}`).toEqual(open ? undefined : [{ ApiKeyAuth: [] }]);
      const headers = (operation.parameters ?? []).filter((p) => "in" in p && p.in === "header").map((p) => ("name" in p ? p.name : ""));
      const submit = method === "post" && SUBMITS.includes(path);
      expect(headers, `${method} ${path}`).toEqual(submit ? ["Idempotency-Key"] : []);
    }
    expect(document.components?.securitySchemes?.ApiKeyAuth).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
  });

  it("documents the webhook endpoints: a JSON body only on creation, the secret only from creation and rotation", () => {
    const paths = buildOpenApiDocument(API_ROUTES).paths ?? {};
    const dataRef = (operation: { responses?: Record<string, unknown> } | undefined, status: string) =>
      JSON.stringify((operation?.responses?.[status] as { content?: unknown } | undefined)?.content);
    const create = paths["/webhook_endpoints"]?.post;
    expect(create?.requestBody).toMatchObject({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/CreateWebhookEndpointRequest" } } },
    });
    expect(dataRef(create, "201")).toContain("#/components/schemas/WebhookEndpointWithSecret");
    expect(dataRef(paths["/webhook_endpoints/{id}/rotate_secret"]?.post, "200")).toContain(
      "#/components/schemas/WebhookEndpointWithSecret",
    );
    expect(dataRef(paths["/webhook_endpoints/{id}/enable"]?.post, "200")).toContain('#/components/schemas/WebhookEndpoint"');
    expect(dataRef(paths["/webhook_endpoints/{id}/test"]?.post, "202")).toContain("#/components/schemas/WebhookTestSent");
    expect(dataRef(paths["/webhook_endpoints/{id}"]?.get, "200")).toContain('#/components/schemas/WebhookEndpoint"');
    expect(dataRef(paths["/webhook_endpoints/{id}"]?.delete, "200")).toContain("#/components/schemas/WebhookEndpointDeleted");
    expect(dataRef(paths["/webhook_endpoints"]?.get, "200")).toContain("#/components/schemas/WebhookEndpointsList");
    expect(dataRef(paths["/webhook_endpoints/{id}/deliveries"]?.get, "200")).toContain("#/components/schemas/WebhookDeliveriesList");
    for (const operation of [
      paths["/webhook_endpoints/{id}"]?.delete,
      paths["/webhook_endpoints/{id}/rotate_secret"]?.post,
      paths["/webhook_endpoints/{id}/enable"]?.post,
      paths["/webhook_endpoints/{id}/test"]?.post,
    ]) {
      expect(operation?.requestBody).toBeUndefined();
      expect(operation?.tags).toEqual(["Webhooks"]);
      expect(operation?.responses?.["404"]?.description).toContain("WEBHOOK_ENDPOINT_NOT_FOUND");
    }
  });

  it("declares every delivered event in the webhooks section: the event body, the Standard Webhooks headers, 2xx to deliver", () => {
    const webhooks = buildOpenApiDocument(API_ROUTES).webhooks ?? {};
    expect(Object.keys(webhooks).sort()).toEqual(
      ["filing.accepted", "filing.documents_ready", "filing.errored", "filing.rejected", "webhook.test"].sort(),
    );
    for (const [type, item] of Object.entries(webhooks)) {
      const operation = "post" in item ? item.post : undefined;
      expect(operation, type).toBeDefined();
      const headers = (operation?.parameters ?? []).map((p) => ("in" in p ? `${p.in}:${p.name}:${p.required}` : ""));
      expect(headers, type).toEqual(["header:webhook-id:true", "header:webhook-timestamp:true", "header:webhook-signature:true"]);
      expect(operation?.requestBody, type).toMatchObject({
        required: true,
        content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookEvent" } } },
      });
      expect(Object.keys(operation?.responses ?? {}), type).toEqual(["2XX"]);
      expect(operation?.responses?.["2XX"]?.description, type).toMatch(/2xx within 10 seconds/);
      expect(operation?.description, type).toContain(`\`${type}\``);
    }
  });

  it("documents every error code, the sandbox table and webhooks", () => {
    const description = buildOpenApiDocument(API_ROUTES).info.description ?? "";
    for (const text of [
      "VALIDATION_ERROR",
      "IDEMPOTENCY_KEY_CONFLICT",
      "SERVICE_UNAVAILABLE",
      "TAX_UTR_MISMATCH",
      "NI000002",
      "00000005",
      "WEBHOOK_ENDPOINT_NOT_FOUND",
      "webhook-signature",
      "evt_test_",
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
