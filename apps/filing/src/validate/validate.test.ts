import { randomUUID } from "node:crypto";
import type { AccountsSubmitResponse, Ct600ValidationResult, FilingRpcCaller } from "@dormant/contracts";
import { FILING_RPC_QUEUE } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryDataClient } from "@dormant/company-data";
import { createLogger } from "@dormant/service-kit";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createRegistryDataSource } from "../registry-data/registry-data-source.ts";
import { sandboxRegistry } from "../registry-data/sandbox-registry.ts";
import { businessValidationError } from "../submit/company-lookup.ts";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";
import { validateCt600 } from "./validate-ct600.ts";
import { planOrFindings } from "./validation-report.ts";

// filing.validate_ct600 / filing.validate_accounts with the real filing service, billing, both
// submitters and the authority simulator: planned as a submit plans, checked by the tax
// submitter (HMRC's schema and rules), nothing written, held or sent.
let h: FilingHarness;
let db: FilingDb;
beforeAll(async () => {
  h = await startFilingHarness("validate", { billing: true, taxSubmitter: true, registrySubmitter: true });
  db = createFilingDb(h.database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await h?.teardown();
});

const silent = createLogger({ service: "filing-test", level: "silent" });
const newKey = () => `key_${randomUUID().replaceAll("-", "")}`;

async function rowCounts(): Promise<Record<string, number>> {
  const [row] = await db.$queryRaw<Array<Record<string, number>>>`
    SELECT (SELECT count(*)::int FROM filings) AS filings, (SELECT count(*)::int FROM filing_parts) AS parts,
      (SELECT count(*)::int FROM documents) AS documents, (SELECT count(*)::int FROM outbox) AS outbox`;
  return row!;
}

describe("validate-only over filing.rpc", () => {
  it("writes, holds and sends nothing, even for an account with no money", async () => {
    const caller = h.caller({ account_id: await h.openAccount(0), key_id: newKey() });
    const before = await rowCounts();
    const lastSeq = Math.max(0, ...h.sim.context.received.list().map((entry) => entry.seq));
    const ct600 = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.validate_ct600", {
      caller,
      filing: { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" },
    });
    expect(ct600).toMatchObject({ valid: true, period_split: false, problems: [] });
    const accounts = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.validate_accounts", {
      caller,
      filing: { company_number: "00000001", period_end: "2026-03-31", approval: { date: "2026-05-01" } },
    });
    expect(accounts.checks).toEqual([
      { name: "business_rules", passed: true },
      { name: "ixbrl_mandatory_facts", passed: true },
    ]);
    expect(await rowCounts()).toEqual(before);
    expect(await h.availablePence(caller.account_id)).toBe(0);
    const sent = h.sim.context.received.list().filter((entry) => entry.seq > lastSeq && entry.target !== "registry-data");
    expect(sent).toEqual([]);
  });

  it("checks a live CT600's returns with the accounts a submit would attach (this account's, same company and period end)", async () => {
    const caller: FilingRpcCaller = h.caller({ account_id: await h.openAccount(10_000), key_id: newKey() });
    const filed = (await h.submitAccounts(caller, {
      company_number: "SC000001",
      period_end: "2026-10-31",
      approval: { date: "2026-11-02" },
    })) as AccountsSubmitResponse;
    expect((await h.waitForEvent(filed.filing_id, 20_000)).type).toBe("filing.accepted");

    // The real bus and tax submitter, observed on the way: what each tax.check_part carried.
    const checked: Array<{ accounts?: { covers: string } }> = [];
    const bus = {
      rpcCall: ((queue: string, type: string, payload: never, options?: never) => {
        if (type === "tax.check_part") checked.push(payload);
        return h.peer.rpcCall(queue as never, type as never, payload, options);
      }) as FilingHarness["peer"]["rpcCall"],
    };
    const registry = createRegistryDataSource({
      client: createRegistryDataClient({ baseUrl: h.config.REGISTRY_DATA_URL, apiKey: h.config.REGISTRY_DATA_API_KEY, timeoutMs: 5_000 }),
      redis: h.service.redis,
      keyPrefix: h.config.REDIS_KEY_PREFIX,
      ttlSeconds: 60,
      notFoundTtlSeconds: 60,
      logger: silent,
    });
    const now = () => new Date();
    const deps = { db, bus, registry, sandboxRegistry: sandboxRegistry(now), logger: silent, now };
    const filing = { company_number: "SC000001", utr: "1234567890", period_end: "2026-10-31" };
    const mine: Ct600ValidationResult = await validateCt600(deps, { caller, filing });
    expect(mine).toMatchObject({ valid: true, problems: [] });
    expect(checked.map((request) => request.accounts?.covers)).toEqual(["this-period"]);

    // Another account's accounts are never attached.
    const other = h.caller({ account_id: await h.openAccount(0), key_id: newKey() });
    expect(await validateCt600(deps, { caller: other, filing })).toMatchObject({ valid: true });
    expect(checked.map((request) => request.accounts?.covers)).toEqual(["this-period", undefined]);
  });

  it("derives a test key's validation from the sandbox's made-up company, never asking the registry", async () => {
    const report = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.validate_ct600", {
      caller: h.caller({ mode: "test", key_id: newKey() }),
      filing: { company_number: "77777777", utr: "1234567890", period_end: "2026-03-31", client_reference: "sandbox-1" },
    });
    expect(report).toMatchObject({ valid: true, sandbox: true, client_reference: "sandbox-1" });
    expect(report.derived_values).toMatchObject({ company_name: "SANDBOX SAMPLE COMPANY LIMITED", declarant_name: "Sandbox Director" });
    expect(h.sim.context.received.list({ target: "registry-data", company: "77777777" })).toEqual([]);
  });
});

describe("planOrFindings", () => {
  it("reports which check refused the plan: the business rules, or the iXBRL's mandatory facts after them", async () => {
    const rules = await planOrFindings(async () => {
      throw businessValidationError([{ path: "approval.date", message: "must be after the period end" }]);
    }, ["ixbrl_mandatory_facts"]);
    expect(rules.findings).toEqual({
      checks: [{ name: "business_rules", passed: false }],
      problems: [{ field: "approval.date", code: "BUSINESS_RULE", message: "must be after the period end" }],
    });
    const facts = await planOrFindings(async () => {
      throw businessValidationError([{ path: "accounts", message: "lacks EntityCurrentLegalOrRegisteredName" }], "IXBRL_MANDATORY_FACT");
    }, ["ixbrl_mandatory_facts"]);
    expect(facts.findings.checks).toEqual([
      { name: "business_rules", passed: true },
      { name: "ixbrl_mandatory_facts", passed: false },
    ]);
    await expect(planOrFindings(async () => Promise.reject(new Error("registry down")), [])).rejects.toThrow("registry down");
  });
});
