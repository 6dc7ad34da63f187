import { type Bus, connectBus, type Subscription } from "@dormant/bus";
import {
  AppError,
  credentialsBinding,
  DEVELOPMENT_SEALING_KEY,
  FILING_RPC_CATALOG,
  inDoubtError,
  type CompanyDeadlines,
  type CompanyDeadlinesRequest,
  type Filing,
  openSealedSecret,
  sealingKeyFromBase64,
  type SubmitAccountsRequest,
  type SubmitCt600Request,
  PLATFORM_TOPOLOGY,
  type ValidateAccountsRequest,
  type ValidateCt600Request,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, type TestVhost } from "@dormant/testing";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accountsBody, ct600Body, get, idempotencyKey, submit, validate } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const NOW = "2024-05-01T10:00:00.000Z";
const FILING: Filing = {
  filing_id: "fil_live123",
  filing_type: "ct600",
  company_number: "00000001",
  company_name: "ACME DORMANT LIMITED",
  period: { start: "2023-04-01", end: "2024-03-31" },
  status: "submitted",
  period_split: false,
  tax_status: "submitted",
  tax_correlation_id: "A1B2C3",
  created_at: NOW,
  updated_at: NOW,
};

const FILING_DERIVED = {
  company_name: "ACME DORMANT LIMITED",
  period_start: "2023-04-01",
  is_first_year: false,
  declarant_name: "Ada Lovelace",
  declarant_status: "Director",
};

const DEADLINES: CompanyDeadlines = {
  company_number: "00000001",
  company_name: "ACME DORMANT LIMITED",
  today: "2024-05-01",
  accounts_periods: [
    {
      kind: "current",
      period: { start: "2023-04-01", end: "2024-03-31" },
      due_on: "2024-12-31",
      overdue: false,
      filings: [{ filing_id: "fil_live456", status: "submitted" }],
    },
  ],
  ct600_periods: [
    {
      period: { start: "2023-04-01", end: "2024-03-31" },
      accounts_period_end: "2024-03-31",
      filing_deadline: "2025-03-31",
      overdue: false,
      filings: [{ filing_id: "fil_live123", status: "submitted" }],
    },
  ],
};

/** A stand-in filing service on filing.rpc that records what it was asked. */
function fakeFilingService() {
  const received = {
    ct600: [] as SubmitCt600Request[],
    accounts: [] as SubmitAccountsRequest[],
    reads: [] as Array<{ type: string; request: unknown; requestId: string }>,
    validations: [] as Array<ValidateCt600Request | ValidateAccountsRequest>,
  };
  let failWith: AppError | undefined;
  const handlers = {
    "filing.submit_ct600": async (request: SubmitCt600Request) => {
      received.ct600.push(request);
      if (failWith) throw failWith;
      return {
        filing_id: "fil_live123",
        status: "submitted" as const,
        tax_correlation_id: "A1B2C3",
        period_split: false,
        submitted_at: NOW,
        derived_values: {
          company_name: "ACME DORMANT LIMITED",
          period_start: "2023-04-01",
          is_first_year: false,
          declarant_name: "Ada Lovelace",
          declarant_status: "Director",
        },
      };
    },
    "filing.submit_accounts": async (request: SubmitAccountsRequest) => {
      received.accounts.push(request);
      if (failWith) throw failWith;
      return {
        filing_id: "fil_live456",
        status: "submitted" as const,
        registry_submission_number: "A00001",
        submitted_at: NOW,
        derived_values: {
          company_name: "ACME",
          entity_type: "ltd",
          period_start: "2023-04-01",
          is_first_year: false,
          director_name: "Ada Lovelace",
          approval_date: "2024-05-01",
          share_capital: 100,
          cash: 100,
        },
      };
    },
    "filing.get": async (request: { filing_id: string }, context: { requestId: string }) => {
      received.reads.push({ type: "get", request, requestId: context.requestId });
      if (request.filing_id !== FILING.filing_id) throw new AppError("FILING_NOT_FOUND", "No filing with this id for this API key");
      return FILING;
    },
    "filing.list": async (request: unknown) => {
      received.reads.push({ type: "list", request, requestId: "" });
      return { filings: [], pagination: { total: 0, limit: 20, offset: 0, has_more: false } };
    },
    "filing.list_documents": async () => ({
      filing_id: "fil_live123",
      documents: [{ type: "ct600_pdf" as const, name: "ct600.pdf", size_bytes: 5, generated_at: NOW }],
    }),
    "filing.get_document": async () => ({
      document_type: "ct600_pdf" as const,
      media_type: "application/pdf",
      file_name: "ct600 (1).pdf",
      content_base64: Buffer.from("%PDF-").toString("base64"),
    }),
    "filing.get_document_chunk": async (request: { offset: number; length: number }) => ({
      document_type: "ct600_pdf" as const,
      media_type: "application/pdf",
      file_name: "ct600 (1).pdf",
      total_bytes: 5,
      generated_at: NOW,
      offset: request.offset,
      content_base64: Buffer.from("%PDF-")
        .subarray(request.offset, request.offset + request.length)
        .toString("base64"),
    }),
    "filing.validate_ct600": async (request: ValidateCt600Request) => {
      received.validations.push(request);
      return {
        valid: true,
        derived_values: FILING_DERIVED,
        period_split: false,
        parts: [{ part_number: 1, period: { start: "2023-04-01", end: "2024-03-31" } }],
        problems: [],
        checks: [
          { name: "business_rules" as const, passed: true },
          { name: "ct600_schema" as const, part_number: 1, passed: true },
          { name: "hmrc_business_rules" as const, part_number: 1, passed: true },
        ],
      };
    },
    "filing.validate_accounts": async (request: ValidateAccountsRequest) => {
      received.validations.push(request);
      return {
        valid: false,
        derived_values: null,
        period_split: null,
        parts: [],
        problems: [{ field: "approval.date", code: "BUSINESS_RULE" as const, message: "must be after the period end" }],
        checks: [{ name: "business_rules" as const, passed: false }],
      };
    },
    "filing.deadlines": async (request: CompanyDeadlinesRequest) => {
      received.reads.push({ type: "deadlines", request, requestId: request.caller.request_id });
      if (request.company_number === "99999999") {
        throw new AppError("VALIDATION_ERROR", "The filing does not satisfy the business rules", {
          details: [{ field: "company_number", message: "company 99999999 is not known to the registry" }],
        });
      }
      return { ...DEADLINES, company_number: request.company_number };
    },
  };
  return {
    received,
    handlers,
    failNext: (error: AppError | undefined) => {
      failWith = error;
    },
  };
}

describe("live mode over the bus (a stand-in filing service serves filing.rpc)", () => {
  let vhost: TestVhost;
  let gw: TestGateway;
  let server: Bus<Record<never, never>, typeof FILING_RPC_CATALOG>;
  let serving: Subscription;
  const service = fakeFilingService();
  const sealingKey = sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64);

  beforeAll(async () => {
    vhost = await createTestVhost("gw_live");
    gw = await createTestGateway({ label: "live_bus", amqpUrl: vhost.url });
    server = await connectBus({
      url: vhost.url,
      service: "filing-test",
      topology: PLATFORM_TOPOLOGY,
      messages: {},
      rpc: FILING_RPC_CATALOG,
      logger: createLogger({ service: "filing-test", level: "silent" }),
    });
    serving = await server.rpcServe("filing.rpc", service.handlers);
  });
  afterAll(async () => {
    await serving?.stop();
    await server?.close();
    await gw?.close();
    await vhost?.delete();
  });
  beforeEach(() => service.failNext(undefined));

  it("submits a CT600: caller, request id and key travel along; credentials only sealed to this request", async () => {
    const key = idempotencyKey();
    const body = ct600Body({ declarant: { status: "Director" } });
    const response = await submit(gw.app, "ct600", gw.account.liveKey, body, key);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({
      success: true,
      data: { filing_id: "fil_live123", status: "submitted" },
      request_id: response.headers["x-request-id"],
    });

    const received = service.received.ct600.at(-1)!;
    expect(received.caller).toEqual({
      account_id: gw.account.accountId,
      key_id: expect.any(String),
      mode: "live",
      request_id: response.headers["x-request-id"],
    });
    expect(received.idempotency_key).toBe(key);
    const { credentials, ...filing } = body;
    expect(received.filing).toEqual(filing);
    expect(JSON.stringify(received)).not.toContain("correct horse battery staple");
    expect(openSealedSecret(received.credentials, [sealingKey], credentialsBinding(gw.account.accountId, key))).toEqual(credentials);
    expect(() => openSealedSecret(received.credentials, [sealingKey], credentialsBinding(gw.account.accountId, "another key"))).toThrow();
  });

  it("replays a repeated live submit without asking again, and refuses the key with another body (409)", async () => {
    const key = idempotencyKey();
    const before = service.received.accounts.length;
    const first = await submit(gw.app, "accounts", gw.account.liveKey, accountsBody(), key);
    const replay = await submit(gw.app, "accounts", gw.account.liveKey, accountsBody(), key);
    expect(first.status).toBe(202);
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(first.body);
    expect(service.received.accounts.length).toBe(before + 1);
    const conflict = await submit(gw.app, "accounts", gw.account.liveKey, accountsBody({ period_end: "2024-04-30" }), key);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("IDEMPOTENCY_KEY_CONFLICT");
  });

  it("answers the filing service's own errors as they are (402 with details)", async () => {
    service.failNext(
      new AppError("INSUFFICIENT_BALANCE", "The balance is below the 20.00 GBP fee", {
        details: [{ field: "balance", message: "insufficient", required: "20.00", available: "5.00" }],
      }),
    );
    const response = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body());
    expect(response.status).toBe(402);
    expect(response.body.error).toEqual({
      code: "INSUFFICIENT_BALANCE",
      message: "The balance is below the 20.00 GBP fee",
      details: [{ field: "balance", message: "insufficient", required: "20.00", available: "5.00" }],
    });
  });

  // Issue 25: the filing service names the filing of a submit in doubt over the RPC error
  // contract; the gateway answers it as is and keeps neither it nor a transient 409, so that the
  // retry that finds the filing settled gets 202 with it.
  it("answers a submit in doubt naming its filing, keeps no transient answer, and keeps the 202 of the retry", async () => {
    const key = idempotencyKey();
    const before = service.received.ct600.length;
    service.failNext(inDoubtError("tax", "fil_live123", { retryAfterSeconds: 30 }));
    const inDoubt = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body(), key);
    expect(inDoubt.status).toBe(502);
    expect(inDoubt.headers["retry-after"]).toBe("30");
    expect(inDoubt.body.error).toMatchObject({
      code: "TAX_UNAVAILABLE",
      message: expect.stringMatching(/fil_live123 .*settled with the tax authority and nothing will be sent twice/),
      details: [{ field: "filing_id", filing_id: "fil_live123", filing_status: "pending", in_doubt: true }],
    });
    service.failNext(new AppError("IDEMPOTENCY_KEY_IN_USE", "still running", { retryAfterSeconds: 2 }));
    const inUse = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body(), key);
    expect(inUse.status).toBe(409);
    service.failNext(undefined);
    const settled = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body(), key);
    expect(settled.status).toBe(202);
    expect(settled.body.data).toMatchObject({ filing_id: "fil_live123" });
    const replay = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body(), key);
    expect(replay.body).toEqual(settled.body);
    expect(service.received.ct600.length).toBe(before + 3);
  });

  it("passes Retry-After of an authority outage through (502 TAX_UNAVAILABLE)", async () => {
    service.failNext(new AppError("TAX_UNAVAILABLE", "The tax authority is unavailable", { retryAfterSeconds: 120 }));
    const response = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body());
    expect(response.status).toBe(502);
    expect(response.headers["retry-after"]).toBe("120");
  });

  it("reads filings, lists and documents through the filing service", async () => {
    const filing = await get(gw.app, "/filings/fil_live123", gw.account.liveKey);
    expect(filing.status).toBe(200);
    expect(filing.body).toEqual({ success: true, data: FILING });
    expect(service.received.reads.at(-1)?.requestId).toBe(filing.headers["x-request-id"]);
    expect((await get(gw.app, "/filings/fil_other", gw.account.liveKey)).body.error.code).toBe("FILING_NOT_FOUND");

    const list = await get(gw.app, "/filings?status=accepted&limit=5", gw.account.liveKey);
    expect(list.body.data.pagination.total).toBe(0);
    expect(service.received.reads.at(-1)?.request).toMatchObject({ criteria: { status: "accepted", limit: 5, offset: 0 } });

    const documents = await get(gw.app, "/filings/fil_live123/documents", gw.account.liveKey);
    expect(documents.body.data.documents).toHaveLength(1);

    const pdf = await get(gw.app, "/filings/fil_live123/documents/ct600_pdf", gw.account.liveKey).buffer(true);
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe('attachment; filename="ct600__1_.pdf"');
    expect(Buffer.from(pdf.body as Buffer).toString()).toBe("%PDF-");
  });

  it("reads a company's deadlines through the filing service (filing.deadlines), its errors passed through", async () => {
    const response = await get(gw.app, "/companies/00000001/deadlines", gw.account.liveKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: DEADLINES });
    expect(service.received.reads.at(-1)).toEqual({
      type: "deadlines",
      request: {
        caller: {
          account_id: gw.account.accountId,
          key_id: expect.any(String),
          mode: "live",
          request_id: response.headers["x-request-id"],
        },
        company_number: "00000001",
      },
      requestId: response.headers["x-request-id"],
    });
    const unknown = await get(gw.app, "/companies/99999999/deadlines", gw.account.liveKey);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "company_number", message: "company 99999999 is not known to the registry" }],
    });
    const reads = service.received.reads.length;
    expect((await get(gw.app, "/companies/00000001/deadlines", gw.account.testKey)).body.data.sandbox).toBe(true);
    expect(service.received.reads.length).toBe(reads);
  });

  it("validates through the filing service without credentials, Idempotency-Key or a hold: contract check first", async () => {
    const before = service.received.ct600.length;
    const response = await validate(gw.app, "ct600", gw.account.liveKey, ct600Body({ client_reference: "batch-7" }));
    expect(response.status).toBe(200);
    expect(response.headers["x-ratelimit-limit-minute"]).toBeDefined();
    expect(response.body.success).toBe(true);
    expect(response.body.data).toMatchObject({ valid: true, derived_values: FILING_DERIVED, period_split: false, problems: [] });
    expect(response.body.data.checks.map((c: { name: string }) => c.name)).toEqual([
      "contract",
      "business_rules",
      "ct600_schema",
      "hmrc_business_rules",
    ]);
    const received = service.received.validations.at(-1) as ValidateCt600Request;
    expect(received.caller).toMatchObject({ account_id: gw.account.accountId, mode: "live", request_id: response.headers["x-request-id"] });
    const { credentials: _credentials, ...filing } = ct600Body({ client_reference: "batch-7" });
    expect(received.filing).toEqual(filing);
    expect(JSON.stringify(received)).not.toContain("correct horse battery staple");
    expect(JSON.stringify(received)).not.toContain("credentials");
    expect(service.received.ct600.length).toBe(before);

    const accounts = await validate(gw.app, "accounts", gw.account.liveKey, accountsBody());
    expect(accounts.status).toBe(200);
    expect(accounts.body.data).toMatchObject({ valid: false, problems: [{ field: "approval.date", code: "BUSINESS_RULE" }] });
    expect(JSON.stringify(service.received.validations.at(-1))).not.toContain(String(accountsBody().credentials));
  });

  it("reports a body that breaks the contract itself (200, INVALID_FIELD problems), asking nobody", async () => {
    const asked = service.received.validations.length;
    const response = await validate(gw.app, "ct600", gw.account.liveKey, ct600Body({ utr: "12", period_end: "2024-02-30", colour: "red" }));
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ valid: false, derived_values: null, period_split: null, parts: [] });
    expect(response.body.data.checks).toEqual([{ name: "contract", passed: false }]);
    const fields = response.body.data.problems.map((p: { field: string; code: string }) => `${p.code}:${p.field}`);
    expect(fields).toEqual(expect.arrayContaining(["INVALID_FIELD:utr", "INVALID_FIELD:period_end", "INVALID_FIELD:colour"]));
    const notObject = await validate(gw.app, "accounts", gw.account.testKey, [1, 2]);
    expect(notObject.status).toBe(200);
    expect(notObject.body.data).toMatchObject({ valid: false, sandbox: true, problems: [{ field: "body", code: "INVALID_FIELD" }] });
    expect(service.received.validations.length).toBe(asked);
  });

  it("a test key's validation is derived by the filing service in test mode", async () => {
    const response = await validate(gw.app, "ct600", gw.account.testKey, ct600Body());
    expect(response.status).toBe(200);
    expect((service.received.validations.at(-1) as ValidateCt600Request).caller.mode).toBe("test");
  });

  it("never sends a sandbox id or a test key's request to the filing service", async () => {
    const reads = service.received.reads.length;
    expect((await get(gw.app, "/filings/fil_test_ct600_00000001_0123456789abcdef", gw.account.liveKey)).status).toBe(404);
    expect((await submit(gw.app, "ct600", gw.account.testKey, ct600Body())).body.data.sandbox).toBe(true);
    expect((await get(gw.app, "/filings/fil_live123", gw.account.testKey)).status).toBe(404);
    expect(service.received.reads.length).toBe(reads);
  });

  it("answers 503 with Retry-After, quickly, once the filing service stops serving", async () => {
    await serving.stop();
    try {
      const started = Date.now();
      const response = await request(gw.app).get("/api/v1/filings/fil_live123").set("X-API-Key", gw.account.liveKey);
      expect(response.status).toBe(503);
      expect(response.headers["retry-after"]).toBe("30");
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      serving = await server.rpcServe("filing.rpc", service.handlers);
    }
  });
});
