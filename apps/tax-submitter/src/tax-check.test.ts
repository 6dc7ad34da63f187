import { readFileSync } from "node:fs";
import { ACCEPTED_DORMANT_ACCOUNTS_FILE } from "@dormant/documents/testing";
import { TAX_CHECK_QUEUE, type CheckTaxPartRequest, type CheckTaxPartResponse } from "@dormant/contracts";
import { afterAll, beforeAll, describe, it } from "vitest";
import { buildPartMessage } from "./build-part-message.ts";
import { CHECK_ONLY_SENDER, checkPartMessage, failedChecksError } from "./check-part.ts";
import { newFilingId, taxHarness, type PartInput, type TaxHarness } from "./test-support/tax-harness.ts";

/** Dormant accounts the registry accepted (the fixture tax-flow.test.ts attaches). */
const ACCEPTED_DORMANT_ACCOUNTS = readFileSync(ACCEPTED_DORMANT_ACCOUNTS_FILE).toString("base64");

/**
 * A period the builder takes (a calendar year, 12 months) but HMRC's rules refuse: it starts in
 * the future (9103: From not later than yesterday; 9106: To not later than today).
 */
const FUTURE_PERIOD = { start: "2098-01-01", end: "2098-12-31" };

let t: TaxHarness;
beforeAll(async () => {
  t = await taxHarness("tax-check");
  await t.startWorker();
});
afterAll(() => t.teardown());

/** A part as `tax.check_part` takes it: the submit request without credentials. */
function checkRequest(part: PartInput): CheckTaxPartRequest {
  const { credentials: _credentials, ...request } = t.request(part);
  return request;
}

function check(request: CheckTaxPartRequest): Promise<CheckTaxPartResponse> {
  return t.filingBus.rpcCall(TAX_CHECK_QUEUE, "tax.check_part", request);
}

const PASSED = (partNumber: number) => [
  { name: "ct600_schema", part_number: partNumber, passed: true },
  { name: "hmrc_business_rules", part_number: partNumber, passed: true },
];

describe.concurrent("tax.check_part: the tax authority's checks, without sending", () => {
  it("a nil return passes the CT schema and HMRC's rules; nothing reaches the authority", async ({ expect }) => {
    const request = checkRequest({ companyNumber: "20260101" });
    expect("credentials" in request).toBe(false);
    expect(await check(request)).toEqual({ checks: PASSED(1), problems: [] });
    expect(await t.received({ company: "20260101" })).toEqual([]);
  });

  it("a return with the registry's accepted accounts attached passes, for this period and as each part of a split one", async ({
    expect,
  }) => {
    const single = checkRequest({ companyNumber: "20260102" });
    const accounts = { ixbrl_base64: ACCEPTED_DORMANT_ACCOUNTS, covers: "this-period" as const, filename: "16186885-20260331.xhtml" };
    expect(await check({ ...single, accounts })).toEqual({ checks: PASSED(1), problems: [] });

    const filingId = newFilingId();
    const parts = [
      { partNumber: 1, period: { start: "2024-10-01", end: "2025-09-30" } },
      { partNumber: 2, period: { start: "2025-10-01", end: "2026-03-31" } },
    ];
    for (const part of parts) {
      const request = checkRequest({ filingId, companyNumber: "20260102", partsTotal: 2, ...part });
      const answer = await check({ ...request, accounts: { ixbrl_base64: ACCEPTED_DORMANT_ACCOUNTS, covers: "different-period" } });
      expect(answer).toEqual({ checks: PASSED(part.partNumber), problems: [] });
    }
    expect(await t.received({ company: "20260102" })).toEqual([]);
  });

  it("a return HMRC's rules refuse: AUTHORITY_RULE problems with HMRC's rule numbers and texts", async ({ expect }) => {
    const answer = await check(checkRequest({ companyNumber: "20260103", partNumber: 2, partsTotal: 2, period: FUTURE_PERIOD }));
    expect(answer.checks).toEqual([
      { name: "ct600_schema", part_number: 2, passed: true },
      { name: "hmrc_business_rules", part_number: 2, passed: false },
    ]);
    expect(answer.problems).toEqual([
      {
        field: "return",
        code: "AUTHORITY_RULE",
        rule: 9103,
        message: "The return period From date in Box 30 must not be later than yesterday",
        part_number: 2,
      },
      {
        field: "return",
        code: "AUTHORITY_RULE",
        rule: 9106,
        message: expect.stringContaining("cannot be later than today"),
        part_number: 2,
      },
    ]);
    expect(await t.received({ company: "20260103" })).toEqual([]);
  });

  it("a part the builder refuses: one AUTHORITY_SCHEMA problem and no check listed", async ({ expect }) => {
    const answer = await check(checkRequest({ companyNumber: "20260104", period: { start: "2024-01-01", end: "2025-06-30" } }));
    expect(answer.checks).toEqual([]);
    expect(answer.problems).toEqual([
      {
        field: "return",
        code: "AUTHORITY_SCHEMA",
        message: expect.stringMatching(/^the CT600 could not be built: .*must not exceed 12 months/),
        part_number: 1,
      },
    ]);
  });
});

describe.concurrent("tax.submit_part checks the schema, and leaves HMRC's business rules to validation and the authority", () => {
  it("sends a return only HMRC's rules refuse, and the authority's rejection comes back as its outcome", async ({ expect }) => {
    const filingId = newFilingId();
    const companyNumber = "20260105";
    const response = await t.submit({ filingId, companyNumber, period: FUTURE_PERIOD });
    expect(response.correlation_id).toMatch(/^[0-9A-F]{32}$/);
    expect((await t.received({ company: companyNumber, kind: "submit" })).map((e) => e.answer)).toEqual(["acknowledgement"]);
    expect(await t.outcome(filingId)).toMatchObject({ outcome: "rejected" });
  });
});

describe("validation has a queue of its own (tax.check, CHECK_PREFETCH)", () => {
  it("a live submit is answered while a loop of checks waits on tax.check, not after them", async ({ expect }) => {
    const total = 16;
    let done = 0;
    const checks = Array.from({ length: total }, () =>
      check(checkRequest({ companyNumber: "20260107" })).then((answer) => {
        done += 1;
        return answer;
      }),
    );
    // The checks are on their queue before the submit: on one shared queue (SUBMIT_PREFETCH 8)
    // it would wait behind all but the prefetch's worth of them: at least 9 of 16 done first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const response = await t.submit({ filingId: newFilingId(), companyNumber: "20260108" });
    const doneAtSubmit = done;
    expect(response.correlation_id).toMatch(/^[0-9A-F]{32}$/);
    expect((await Promise.all(checks)).every((answer) => answer.problems.length === 0)).toBe(true);
    expect(doneAtSubmit).toBeLessThan(8);
  });
});

describe("checkPartMessage: the mapping, on messages the builder would never make", () => {
  const tax = { vendorId: "1234", productName: "Dormant Filing Platform", productVersion: "1.0.0", gatewayTest: true, companyType: 0 };
  const built = () => {
    const { credentials: _credentials, ...request } = {
      ...t.request({ companyNumber: "20260106" }),
      accounts: { ixbrl_base64: ACCEPTED_DORMANT_ACCOUNTS, covers: "this-period" as const },
    };
    return buildPartMessage(tax, request, CHECK_ONLY_SENDER).message.xml;
  };

  it("schema errors become AUTHORITY_SCHEMA problems, rule failures AUTHORITY_RULE with HMRC's number", async ({ expect }) => {
    const xml = built();
    expect(await checkPartMessage(xml, 1)).toEqual({ checks: PASSED(1), problems: [] });

    const both = xml.replace("<ThisPeriodAccounts>yes</ThisPeriodAccounts>", "<NoAccountsReason>Company dormant</NoAccountsReason>");
    const ruleBroken = await checkPartMessage(both, 1);
    expect(ruleBroken.checks.map((c) => c.passed)).toEqual([true, false]);
    expect(ruleBroken.problems).toEqual([
      { field: "return", code: "AUTHORITY_RULE", rule: 9349, message: expect.any(String), part_number: 1 },
    ]);

    const badType = xml.replace("<CompanyType>0</CompanyType>", "<CompanyType>X</CompanyType>");
    const schemaBroken = await checkPartMessage(badType, 2);
    expect(schemaBroken.checks[0]).toEqual({ name: "ct600_schema", part_number: 2, passed: false });
    expect(schemaBroken.problems.length).toBeGreaterThan(0);
    expect(schemaBroken.problems[0]).toMatchObject({ field: "return", code: "AUTHORITY_SCHEMA", part_number: 2 });
    expect(schemaBroken.problems[0]?.message).toContain("CompanyType");
  });

  it("the submit's refusal carries the problems as details", ({ expect }) => {
    const error = failedChecksError([{ field: "return", code: "AUTHORITY_RULE", rule: 9349, message: "both", part_number: 1 }]);
    expect(error).toMatchObject({
      code: "VALIDATION_ERROR",
      retryable: false,
      message: "The return fails the tax authority's checks: 9349: both",
      details: [{ field: "return", code: "AUTHORITY_RULE", rule: 9349, message: "both", part_number: 1 }],
    });
  });
});
