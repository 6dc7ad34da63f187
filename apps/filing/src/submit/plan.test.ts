import { startTestSim, type SimServer } from "@dormant/authority-sim/testing";
import { createRegistryDataClient } from "@dormant/company-data";
import type { AppError, AccountsFilingInput } from "@dormant/contracts";
import { checkIxbrlConsistency, readIxbrl } from "@dormant/documents";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix } from "@dormant/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryDataSource, type RegistryDataSource } from "../registry-data/registry-data-source.ts";
import { planAccountsFiling } from "./accounts-plan.ts";
import { planCt600Filing } from "./ct600-plan.ts";

// Derivation and business validation of both submits against the simulator's registry data API
// (through the Redis-cached source), before anything is written or sent.
const testRedis = createTestRedisPrefix("filing-plan");
let redis: Redis;
let sim: SimServer;
let registry: RegistryDataSource;
const now = new Date("2026-11-22T12:00:00Z");

beforeAll(async () => {
  redis = new Redis(testRedis.url, { maxRetriesPerRequest: 1 });
  sim = await startTestSim();
  registry = createRegistryDataSource({
    client: createRegistryDataClient({ baseUrl: sim.urls.registryData, apiKey: "sim-registry-data-key", timeoutMs: 2000 }),
    redis,
    keyPrefix: testRedis.prefix,
    ttlSeconds: 600,
    notFoundTtlSeconds: 60,
    logger: createLogger({ service: "filing-test", level: "silent" }),
  });
});
afterAll(async () => {
  await sim?.close();
  await testRedis.cleanup();
  redis?.disconnect();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("it was accepted"),
    (error: unknown) => error as AppError,
  );

describe("CT600 plan", () => {
  it("applies every override and splits a period over 12 months", async () => {
    const plan = await planCt600Filing(
      registry,
      {
        company_number: "00000001",
        utr: "1234567890",
        period_end: "2026-06-30",
        company: { name: "Lovelace Engines Ltd" },
        period: { start: "2025-04-01" },
        declarant: { name: "Charles Babbage", status: "Company Secretary" },
      },
      now,
    );
    expect(plan.id).toMatch(/^fil_[0-9A-Za-z]{22}$/);
    expect(plan).toMatchObject({
      filingType: "ct600",
      companyName: "Lovelace Engines Ltd",
      period: { start: "2025-04-01", end: "2026-06-30" },
      periodSplit: true,
      derivedValues: {
        company_name: "Lovelace Engines Ltd",
        period_start: "2025-04-01",
        is_first_year: false,
        declarant_name: "Charles Babbage",
        declarant_status: "Company Secretary",
      },
    });
    expect(plan.parts.map((p) => [p.partNumber, p.period.start, p.period.end, p.request.parts_total])).toEqual([
      [1, "2025-04-01", "2026-03-31", 2],
      [2, "2026-04-01", "2026-06-30", 2],
    ]);
    expect(plan.parts[1]!.request).toEqual({
      filing_id: plan.id,
      part_number: 2,
      parts_total: 2,
      company: { number: "00000001", name: "Lovelace Engines Ltd", utr: "1234567890" },
      period: { start: "2026-04-01", end: "2026-06-30" },
      declarant: { name: "Charles Babbage", status: "Company Secretary" },
    });
  });

  it("lists every business problem at once", async () => {
    const error = await failure(
      planCt600Filing(
        registry,
        { company_number: "00000001", utr: "1234567890", period_end: "2027-01-31", declarant: { status: "Agent" } },
        now,
      ),
    );
    expect(error.code).toBe("VALIDATION_ERROR");
    // The end is in the future, the derived period (from 2025-04-01) is longer than 18 months,
    // and an Agent must give a name.
    expect(error.details?.map((d) => d.field).sort()).toEqual(["declarant.name", "period.start", "period_end"]);
  });
});

describe("registry data unavailable", () => {
  it("is REGISTRY_UNAVAILABLE with the registry's Retry-After, for both filing types", async () => {
    const faults = `${sim.urls.control}/faults`;
    await fetch(faults, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ target: "registry-data", down: true }),
    });
    try {
      const ct600 = await failure(
        planCt600Filing(registry, { company_number: "51000001", utr: "1234567890", period_end: "2026-03-31" }, now),
      );
      expect(ct600).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryAfterSeconds: 30 });
      const accounts = await failure(planAccountsFiling(registry, { company_number: "51000002", period_end: "2026-03-31" }, now));
      expect(accounts).toMatchObject({ code: "REGISTRY_UNAVAILABLE", retryAfterSeconds: 30 });
    } finally {
      await fetch(faults, { method: "DELETE" });
    }
  });
});

describe("accounts plan", () => {
  const accounts = (overrides: Partial<AccountsFilingInput> = {}): AccountsFilingInput => ({
    company_number: "00000001",
    period_end: "2026-03-31",
    ...overrides,
  });

  it("derives the accounts, renders the iXBRL once with comparatives, and prepares the registry submission", async () => {
    const plan = await planAccountsFiling(registry, accounts(), now);
    expect(plan.derivedValues).toEqual({
      company_name: "LOVELACE ENGINES LIMITED",
      entity_type: "ltd",
      period_start: "2025-04-01",
      is_first_year: false,
      director_name: "Augusta Ada Lovelace",
      approval_date: "2026-11-22",
      share_capital: 100,
      cash: 100,
    });
    expect(plan.registry).toEqual({
      filing_id: plan.id,
      company: { number: "00000001", name: "LOVELACE ENGINES LIMITED", registry_company_type: "EW" },
      date_signed: "2026-11-22",
      document_filename: "00000001-20260331.xhtml",
    });
    const [document] = plan.documents;
    expect(document).toMatchObject({
      type: "ixbrl_accounts",
      partNumber: null,
      mediaType: "application/xhtml+xml",
      fileName: "00000001-20260331.xhtml",
    });
    const xml = document!.content.toString("utf8");
    expect(checkIxbrlConsistency(xml).problems).toEqual([]);
    // Comparatives: the 2025 accounts (made up to 2025-03-31, the day before this period starts).
    const prior = readIxbrl(xml).contexts.find((context) => context.id === "pri-i");
    expect(prior?.period).toEqual({ instant: "2025-03-31" });
  });

  it("applies the overrides, balance sheet included", async () => {
    const plan = await planAccountsFiling(
      registry,
      accounts({
        company: { name: "Lovelace Engines Ltd", entity_type: "ltd" },
        period: { start: "2025-04-01", is_first_year: false },
        approval: { date: "2026-06-01", director_name: "Charles Babbage", director_position: "Chair" },
        balance_sheet: { share_capital: 250, cash: 300, creditors: 50, profit_loss_account: 0 },
      }),
      now,
    );
    expect(plan.derivedValues).toMatchObject({
      company_name: "Lovelace Engines Ltd",
      director_name: "Charles Babbage",
      approval_date: "2026-06-01",
      share_capital: 250,
      cash: 300,
    });
    expect(plan.registry?.date_signed).toBe("2026-06-01");
    expect(plan.documents[0]!.content.toString("utf8")).toContain("Chair");
  });

  it("refuses a balance sheet that does not balance", async () => {
    const error = await failure(
      planAccountsFiling(
        registry,
        accounts({ balance_sheet: { share_capital: 100, cash: 90, creditors: 0, profit_loss_account: 0 } }),
        now,
      ),
    );
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details).toEqual([{ field: "balance_sheet", message: expect.stringMatching(/balance/) }]);
  });

  it("refuses accounts approved on their balance sheet date, a future period end, an unknown company", async () => {
    const sameDay = await failure(planAccountsFiling(registry, accounts({ approval: { date: "2026-03-31" } }), now));
    expect(sameDay.details).toEqual([{ field: "approval.date", message: expect.stringMatching(/after the end of their period/) }]);
    const future = await failure(planAccountsFiling(registry, accounts({ period_end: "2027-03-31" }), now));
    expect(future.details).toContainEqual({ field: "period_end", message: expect.stringMatching(/in the future/) });
    const unknown = await failure(planAccountsFiling(registry, accounts({ company_number: "99999999" }), now));
    expect(unknown.details).toEqual([{ field: "company_number", message: "company 99999999 is not known to the registry" }]);
  });
});
