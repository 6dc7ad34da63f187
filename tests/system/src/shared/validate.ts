import type { AccountsValidationResult, Ct600ValidationResult } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../harness/api-client.ts";
import type { SystemAccount } from "../harness/accounts.ts";
import { accountsBody, ct600Body } from "../harness/companies.ts";
import type { RunningSystem } from "../harness/system.ts";

// Issue 13, item 1, end to end, every app a process of its own: POST /filings/{type}/validate
// derives like a submit (the simulator's registry data, or the sandbox's for a test key), and the
// tax submitter builds each return and runs HMRC's CT600 schema and HMRC's business rules (the
// published XSLT, through xsltproc) on it. Nothing is stored, held or sent, and a live key with a
// zero balance gets its report.
type Report = Ct600ValidationResult | AccountsValidationResult;

export function validateSuite(shared: () => RunningSystem): void {
  describe("validate-only submits, end to end through the gateway", () => {
    let system: RunningSystem;
    let account: SystemAccount;
    let live: ApiClient;
    let sinceSeq: number;

    const validate = async (client: ApiClient, kind: "ct600" | "accounts", body: unknown) => {
      const answer = await client.request<Report>("POST", `/filings/${kind}/validate`, { body });
      expect(answer.status, JSON.stringify(answer.error)).toBe(200);
      expect(answer.headers.get("x-ratelimit-remaining-minute")).toMatch(/^\d+$/);
      return answer.data!;
    };
    const checkNames = (report: Report) => report.checks.map((c) => `${c.name}${c.part_number ? `#${c.part_number}` : ""}:${c.passed}`);

    beforeAll(async () => {
      system = shared();
      account = await system.createAccount({ balancePence: 0 });
      live = system.client(account.liveKey);
      sinceSeq = await system.sim.lastSeq();
    }, 180_000);
    afterAll(async () => {
      const report = system?.crashReport();
      if (report) throw new Error(report);
    });

    it("a live CT600 with a zero balance: valid, derived from the registry, each return checked by HMRC's schema and rules", async () => {
      const report = (await validate(
        live,
        "ct600",
        ct600Body("00000001", "2026-03-31", { client_reference: "VAL-1" }),
      )) as Ct600ValidationResult;
      expect(report).toMatchObject({
        valid: true,
        period_split: false,
        parts: [{ part_number: 1, period: { start: "2025-04-01", end: "2026-03-31" } }],
        problems: [],
        client_reference: "VAL-1",
      });
      expect(report.derived_values).toMatchObject({ period_start: "2025-04-01", declarant_status: "Director" });
      expect(report).not.toHaveProperty("sandbox");
      expect(checkNames(report)).toEqual(["contract:true", "business_rules:true", "ct600_schema#1:true", "hmrc_business_rules#1:true"]);
    });

    it("an 18-month period: split into two returns, each built and checked", async () => {
      const body = ct600Body("00000001", "2026-03-31", { period: { start: "2024-10-01" } });
      const report = (await validate(live, "ct600", body)) as Ct600ValidationResult;
      expect(report).toMatchObject({ valid: true, period_split: true, problems: [] });
      expect(report.parts.map((p) => p.period)).toEqual([
        { start: "2024-10-01", end: "2025-09-30" },
        { start: "2025-10-01", end: "2026-03-31" },
      ]);
      expect(checkNames(report)).toEqual([
        "contract:true",
        "business_rules:true",
        "ct600_schema#1:true",
        "hmrc_business_rules#1:true",
        "ct600_schema#2:true",
        "hmrc_business_rules#2:true",
      ]);
    });

    it("reports business-rule and contract problems with the field, and stops before the authority's checks", async () => {
      const tooLong = (await validate(
        live,
        "ct600",
        ct600Body("00000001", "2026-03-31", { period: { start: "2024-01-01" } }),
      )) as Ct600ValidationResult;
      expect(tooLong).toMatchObject({ valid: false, derived_values: null, period_split: null, parts: [] });
      expect(tooLong.problems).toEqual([expect.objectContaining({ field: "period.start", code: "BUSINESS_RULE" })]);
      expect(checkNames(tooLong)).toEqual(["contract:true", "business_rules:false"]);

      const unknown = await validate(live, "ct600", ct600Body("99999999", "2026-03-31"));
      expect(unknown.problems).toEqual([expect.objectContaining({ field: "company_number", code: "BUSINESS_RULE" })]);

      const approval = await validate(live, "accounts", accountsBody("00000001", "2026-03-31", { approval: { date: "2026-03-31" } }));
      expect(approval).toMatchObject({
        valid: false,
        problems: [expect.objectContaining({ field: "approval.date", code: "BUSINESS_RULE" })],
      });

      const contract = await validate(live, "ct600", { ...ct600Body("00000001", "2026-03-31"), utr: "12" });
      expect(contract).toMatchObject({
        valid: false,
        problems: [{ field: "utr", code: "INVALID_FIELD" }],
        checks: [{ name: "contract", passed: false }],
      });
    });

    it("live accounts: derived, rendered, and the iXBRL's mandatory facts checked", async () => {
      const report = (await validate(live, "accounts", accountsBody("00000001", "2026-03-31"))) as AccountsValidationResult;
      expect(report).toMatchObject({
        valid: true,
        period_split: false,
        parts: [{ part_number: 1, period: { start: "2025-04-01", end: "2026-03-31" } }],
        problems: [],
      });
      expect(report.derived_values).toMatchObject({ period_start: "2025-04-01", entity_type: "ltd" });
      expect(checkNames(report)).toEqual(["contract:true", "business_rules:true", "ixbrl_mandatory_facts:true"]);
    });

    it("a test key: the same checks on the sandbox's made-up company, marked sandbox", async () => {
      const sandbox = system.client(account.testKey);
      const ct600 = (await validate(sandbox, "ct600", ct600Body("SC000002", "2026-03-31"))) as Ct600ValidationResult;
      expect(ct600).toMatchObject({ sandbox: true });
      expect(ct600.derived_values?.company_name).toBe("SANDBOX SAMPLE COMPANY LIMITED");
      expect(ct600.checks.some((c) => c.name === "hmrc_business_rules")).toBe(true);
      const accounts = await validate(sandbox, "accounts", accountsBody("00000001", "2026-03-31"));
      expect(accounts).toMatchObject({ sandbox: true });
    });

    it("stored, held, charged and sent nothing", async () => {
      expect((await live.listFilings()).data?.filings).toEqual([]);
      expect((await system.billing.ledger(account.accountId)).filter((line) => line.kind !== "credit")).toEqual([]);
      expect(await system.billing.balance(account.accountId)).toMatchObject({ balance: "0.00", held: "0.00" });
      const sent = (await system.sim.received()).filter((entry) => entry.seq > sinceSeq && entry.target !== "registry-data");
      expect(sent).toEqual([]);
    });
  });
}
