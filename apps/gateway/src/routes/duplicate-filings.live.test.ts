import { startFilingHarness, type FilingHarness } from "@dormant/filing/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsBody, ct600Body, get, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// Issue 13 items 3 and 4 through the gateway as production wires it, with the real filing service
// (billing and both submitters in-process, the simulator as the authority) on real Postgres,
// Redis and RabbitMQ: 409 FILING_EXISTS as answered, and client_reference on submits, reads and
// the list filter.
let h: FilingHarness;
let gw: TestGateway;

beforeAll(async () => {
  h = await startFilingHarness("gw_duplicates", { billing: true, taxSubmitter: true, registrySubmitter: true });
  gw = await createTestGateway({ label: "duplicate_filings_live", amqpUrl: h.vhost.url });
  await h.openAccount(100_000, gw.account.accountId);
}, 90_000);
afterAll(async () => {
  await gw?.close();
  await h?.teardown();
});

describe("POST /filings/ct600 (live): no duplicate filings", () => {
  it("answers a second filing of the same company and period end 409 FILING_EXISTS with the existing filing_id", async () => {
    const body = ct600Body({ period_end: "2026-03-31", client_reference: "GW-DUP-1" });
    const first = await submit(gw.app, "ct600", gw.account.liveKey, body);
    expect(first.status).toBe(202);
    const filingId: string = first.body.data.filing_id;

    const second = await submit(gw.app, "ct600", gw.account.liveKey, body);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      success: false,
      error: {
        code: "FILING_EXISTS",
        message: expect.stringContaining("already has"),
        details: [{ field: "filing_id", message: expect.any(String), filing_id: filingId }],
      },
      request_id: expect.any(String),
    });
    expect(second.headers["retry-after"]).toBeUndefined();

    // Another account files the same company and period: allowed, and nothing of the first shows.
    const other = await gw.createAccount();
    await h.openAccount(100_000, other.accountId);
    const theirs = await submit(gw.app, "ct600", other.liveKey, body);
    expect(theirs.status).toBe(202);
    expect(JSON.stringify(theirs.body)).not.toContain(filingId);
  });

  it("the sandbox is stateless: the same test submit twice under different keys is 202 both times, echoing client_reference", async () => {
    const body = ct600Body({ client_reference: "SANDBOX-1" });
    for (let i = 0; i < 2; i++) {
      const response = await submit(gw.app, "ct600", gw.account.testKey, body);
      expect(response.status).toBe(202);
      expect(response.body.data).toMatchObject({ sandbox: true, client_reference: "SANDBOX-1" });
    }
  });
});

describe("client_reference (live)", () => {
  it("is answered by the submit, shown by GET /filings/{id} and the list, and filters the list", async () => {
    const submitted = await submit(
      gw.app,
      "accounts",
      gw.account.liveKey,
      accountsBody({ period_end: "2026-03-31", approval: { date: "2026-05-01" }, client_reference: "ACME/ACC 2026" }),
    );
    expect(submitted.status).toBe(202);
    expect(submitted.body.data.client_reference).toBe("ACME/ACC 2026");
    const filingId: string = submitted.body.data.filing_id;

    const read = await get(gw.app, `/filings/${filingId}`, gw.account.liveKey);
    expect(read.body.data).toMatchObject({ filing_id: filingId, client_reference: "ACME/ACC 2026" });

    const filtered = await get(gw.app, `/filings?client_reference=${encodeURIComponent("ACME/ACC 2026")}`, gw.account.liveKey);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.filings).toEqual([expect.objectContaining({ filing_id: filingId, client_reference: "ACME/ACC 2026" })]);
    expect(filtered.body.data.pagination.total).toBe(1);
    const none = await get(gw.app, "/filings?client_reference=ACME", gw.account.liveKey);
    expect(none.body.data.filings).toEqual([]);
  });
});

describe("client_reference validation (live and sandbox alike)", () => {
  it.each([
    ["101 characters", "r".repeat(101)],
    ["empty", ""],
    ["a number", 42],
  ])("%s: 400 VALIDATION_ERROR naming client_reference on both submits", async (_what, value) => {
    for (const key of [gw.account.liveKey, gw.account.testKey]) {
      for (const [type, body] of [
        ["ct600", ct600Body({ client_reference: value })],
        ["accounts", accountsBody({ client_reference: value })],
      ] as const) {
        const response = await submit(gw.app, type, key, body);
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe("VALIDATION_ERROR");
        expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual(["client_reference"]);
      }
    }
  });

  it("accepts 100 characters", async () => {
    const response = await submit(gw.app, "ct600", gw.account.testKey, ct600Body({ client_reference: "r".repeat(100) }));
    expect(response.status).toBe(202);
  });

  it("refuses a list filter of 101 characters or given twice", async () => {
    for (const query of [`?client_reference=${"r".repeat(101)}`, "?client_reference=a&client_reference=b"]) {
      const response = await get(gw.app, `/filings${query}`, gw.account.liveKey);
      expect(response.status).toBe(400);
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual(["client_reference"]);
    }
  });
});
