import { type AccountsSubmitResponse, type Filing, sandboxCompany } from "@dormant/contracts";
import { alertQueries, dashboardQueries, exportedMetrics, isExported, metricNamesOf } from "@dormant/ops/observability";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminStatus, deadLetterQueues } from "./harness/admin-status.ts";
import type { ApiClient, SubmitData } from "./harness/api-client.ts";
import { ct600Body, tableFilings, type PlannedFiling } from "./harness/companies.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";
import { waitForFinal } from "./harness/wait-final.ts";
import { APP_NAMES } from "./harness/paths.ts";

/**
 * The give-up set here (the default is minutes, production's shape): a filing the authority never
 * answers (00000004) ends in `error` within GIVE_UP_LIMIT_MS. 30 s, not the 20 s development once
 * had: on a loaded machine the sister filings of 00000004 must still end as the table says.
 */
const GIVE_UP_SECONDS = 30;
const GIVE_UP_LIMIT_MS = 45_000;
/** The submitters' breakers' reset time (production: 30 s). */
const BREAKER_RESET_MS = "5000";
/** Long enough for a poll refused by an open breaker at the give-up time to wait for it (two breaker cycles). */
const FINAL_WITHIN_MS = 120_000;
const OPENING_BALANCE_PENCE = 100_000;

interface Tracked extends PlannedFiling {
  idempotencyKey: string;
  answer: SubmitData;
  status: number;
  /** When the 202 arrived. */
  answeredAt: number;
  final?: Filing;
  /** From the 202 to the first poll that saw the final status. */
  finalAfterMs?: number;
}

// Every company of the spec's table, a CT600 and dormant accounts each, filed with a live key
// through the gateway and the whole chain (filing, billing, submitters, simulator), every app a
// process of its own with default settings (fast simulator timing) but for a give-up of 30 s.
describe("live filings of the spec's company table, end to end through the gateway", () => {
  let system: RunningSystem;
  let client: ApiClient;
  let otherClient: ApiClient;
  let testKeyClient: ApiClient;
  const tracked: Tracked[] = [];
  let split: Tracked;

  beforeAll(async () => {
    system = await startSystem({
      label: "outcomes",
      env: {
        // A breaker that 00000004's hanging polls opened (see the admin status test) lets a trial
        // call through after 5 s instead of 30: the healthy report that test waits for comes
        // sooner, and a poll refused at the give-up time waits less. The breaker still opens as
        // in production (same threshold, volume and window).
        "tax-submitter": { POLL_GIVE_UP_AFTER_SECONDS: String(GIVE_UP_SECONDS), BREAKER_RESET_TIMEOUT_MS: BREAKER_RESET_MS },
        "registry-submitter": { REGISTRY_POLL_HORIZON_SECONDS: String(GIVE_UP_SECONDS), BREAKER_RESET_TIMEOUT_MS: BREAKER_RESET_MS },
      },
    });
    const account = await system.createAccount({ balancePence: OPENING_BALANCE_PENCE });
    client = system.client(account.liveKey);
    testKeyClient = system.client(account.testKey);
    otherClient = system.client((await system.createAccount({ balancePence: 10_000 })).liveKey);

    const planned: PlannedFiling[] = [
      ...tableFilings(),
      // 16 months: 2025-04-01 to 2026-07-31, split into 12 months and the remaining 4.
      {
        kind: "ct600",
        company: "00000001",
        body: ct600Body("00000001", "2026-07-31", { period: { start: "2025-04-01" } }),
        expected: { status: "accepted" },
      },
    ];
    const submitted = await Promise.all(
      planned.map(async (filing, index) => {
        const idempotencyKey = `outcomes-${index}-${filing.kind}-${filing.company}`;
        const answer = await client.submit(filing.kind, filing.body, idempotencyKey);
        if (answer.status !== 202 || !answer.data)
          throw new Error(`${filing.kind} ${filing.company}: ${answer.status} ${JSON.stringify(answer.error)}`);
        return { ...filing, idempotencyKey, answer: answer.data, status: answer.status, answeredAt: Date.now() } satisfies Tracked;
      }),
    );
    tracked.push(...submitted);
    split = tracked.at(-1)!;
    await Promise.all(
      tracked.map(async (filing) => {
        filing.final = await waitForFinal(client, filing.answer.filing_id, { timeoutMs: FINAL_WITHIN_MS, intervalMs: 1_000 });
        filing.finalAfterMs = Date.now() - filing.answeredAt;
      }),
    );
  });

  afterAll(async () => {
    const report = system?.crashReport();
    await system?.stop();
    if (report) throw new Error(report);
  });

  it("answers every submit 202 submitted, with the spec's fields", () => {
    for (const filing of tracked) {
      expect(filing.status).toBe(202);
      expect(filing.answer.status).toBe("submitted");
      expect(filing.answer.filing_id).toMatch(/^fil_(?!test_)[A-Za-z0-9]+$/);
      if (filing.kind === "ct600") {
        expect(filing.answer).toMatchObject({
          tax_correlation_id: expect.stringMatching(/^[0-9A-F]{32}$/),
          derived_values: { company_name: expect.any(String) },
        });
      } else {
        expect(filing.answer).toMatchObject({
          registry_submission_number: expect.stringMatching(/^[A-Z0-9]{6}$/),
          derived_values: { company_name: expect.any(String) },
        });
      }
    }
    expect(new Set(tracked.map((filing) => filing.answer.filing_id)).size).toBe(tracked.length);
  });

  it("brings every filing to the outcome the table gives, with its error code", () => {
    const outcomes = tracked.map((filing) => ({
      filing: `${filing.kind} ${filing.company}`,
      status: filing.final?.status,
      code: filing.final?.error?.code,
    }));
    const expected = tracked.map((filing) => ({
      filing: `${filing.kind} ${filing.company}`,
      status: filing.expected.status,
      code: filing.expected.code,
    }));
    expect(outcomes).toEqual(expected);
    for (const filing of tracked) {
      const final = filing.final!;
      expect(final).toMatchObject({ filing_id: filing.answer.filing_id, filing_type: filing.kind, company_number: filing.company });
      if (final.status === "accepted" && filing.kind === "ct600" && !final.period_split)
        expect(final.tax_iru_number).toMatch(/^[A-Z2-7]{32}$/);
      if (filing.kind === "ct600" && !final.period_split) expect(final.tax_status).toBe(final.status);
      if (filing.kind === "accounts") expect(final.registry_status).toBe(final.status);
      if (filing.kind === "accounts")
        expect(final.registry_submission_number).toBe((filing.answer as AccountsSubmitResponse).registry_submission_number);
      if (final.status !== "accepted") expect(final.error?.message).toEqual(expect.any(String));
    }
  });

  it("tells the story a test key's sandbox tells: each company's live outcome is the shared sandbox table's", () => {
    for (const filing of tracked)
      expect(filing.final?.status, `${filing.kind} ${filing.company}`).toBe(sandboxCompany(filing.company).outcome);
  });

  it(`ends 00000004 (the authority never answers) in error within ${GIVE_UP_LIMIT_MS / 1000} s of a ${GIVE_UP_SECONDS} s give-up`, () => {
    const silent = tracked.filter((filing) => filing.company === "00000004");
    expect(silent).toHaveLength(2);
    for (const filing of silent) {
      expect(filing.final?.status).toBe("error");
      expect(filing.finalAfterMs).toBeLessThanOrEqual(GIVE_UP_LIMIT_MS);
    }
  });

  it("splits a 16-month CT600 period into two parts that each reach accepted", () => {
    expect(split.answer).toMatchObject({
      period_split: true,
      parts: [
        { part_number: 1, period: { start: "2025-04-01", end: "2026-03-31" }, tax_status: "submitted" },
        { part_number: 2, period: { start: "2026-04-01", end: "2026-07-31" }, tax_status: "submitted" },
      ],
    });
    expect(split.final).toMatchObject({
      status: "accepted",
      period_split: true,
      period: { start: "2025-04-01", end: "2026-07-31" },
      parts: [
        { part_number: 1, tax_status: "accepted", tax_iru_number: expect.stringMatching(/^[A-Z2-7]{32}$/) },
        { part_number: 2, tax_status: "accepted", tax_iru_number: expect.stringMatching(/^[A-Z2-7]{32}$/) },
      ],
    });
  });

  it("lists the key's filings newest first, filters them and pages through them", async () => {
    const all = await client.listFilings({ limit: 100 });
    expect(all.status).toBe(200);
    expect(all.data?.pagination).toEqual({ total: tracked.length, limit: 100, offset: 0, has_more: false });
    expect(new Set(all.data?.filings.map((filing) => filing.filing_id))).toEqual(new Set(tracked.map((filing) => filing.answer.filing_id)));
    const created = all.data!.filings.map((filing) => filing.created_at);
    expect(created).toEqual([...created].sort().reverse());

    const rejected = await client.listFilings({ status: "rejected", limit: 100 });
    expect(rejected.data?.filings.map((filing) => filing.filing_id).sort()).toEqual(
      tracked
        .filter((filing) => filing.expected.status === "rejected")
        .map((filing) => filing.answer.filing_id)
        .sort(),
    );
    const accounts = await client.listFilings({ type: "accounts", company_number: "SC000001" });
    expect(accounts.data?.filings).toEqual([
      expect.objectContaining({ filing_type: "accounts", company_number: "SC000001", status: "accepted", period_end: "2026-10-31" }),
    ]);

    const pages = [
      await client.listFilings({ limit: 7, offset: 0 }),
      await client.listFilings({ limit: 7, offset: 7 }),
      await client.listFilings({ limit: 7, offset: 14 }),
    ];
    expect(pages.map((page) => page.data?.pagination.has_more)).toEqual([true, true, false]);
    expect(pages.flatMap((page) => page.data!.filings.map((filing) => filing.filing_id))).toEqual(
      all.data!.filings.map((filing) => filing.filing_id),
    );
  });

  it("shows a filing only to the key that made it: 404 for another account's key and for the test key", async () => {
    const filingId = tracked[0]!.answer.filing_id;
    for (const stranger of [otherClient, testKeyClient]) {
      const answer = await stranger.getFiling(filingId);
      expect(answer.status).toBe(404);
      expect(answer.error?.code).toBe("FILING_NOT_FOUND");
    }
    expect((await otherClient.listFilings()).data?.pagination.total).toBe(0);
  });

  it("answers a repeated submit with the same filing, and another body under the same key with 409", async () => {
    const first = tracked[0]!;
    const repeat = await client.submit(first.kind, first.body, first.idempotencyKey);
    expect(repeat.status).toBe(202);
    expect(repeat.data?.filing_id).toBe(first.answer.filing_id);
    const conflict = await client.submit(first.kind, { ...first.body, utr: "9999999999" }, first.idempotencyKey);
    expect(conflict.status).toBe(409);
    expect(conflict.error?.code).toBe("IDEMPOTENCY_KEY_CONFLICT");
  });

  it("makes documents available once accepted, and refuses them before", async () => {
    const acceptedCt600 = tracked.find(
      (filing) => filing.kind === "ct600" && filing.final?.status === "accepted" && !filing.final.period_split,
    )!;
    const documents = await client.listDocuments(acceptedCt600.answer.filing_id);
    expect(documents.status).toBe(200);
    expect(documents.data?.documents.map((document) => document.type)).toContain("ct600_xml");
    const rejected = tracked.find((filing) => filing.final?.status === "rejected")!;
    const refused = await client.listDocuments(rejected.answer.filing_id);
    expect(refused.status).toBe(400);
    expect(refused.error?.code).toBe("FILING_NOT_COMPLETE");
  });

  it("charges exactly 20.00 per accepted filing and nothing for the others, and the ledger reconciles", async () => {
    const accepted = tracked.filter((filing) => filing.final?.status === "accepted");
    const accountId = (await client.account()).data!.account_id;
    const expectedBalance = ((OPENING_BALANCE_PENCE - accepted.length * 2000) / 100).toFixed(2);
    // Billing applies the outcome events after the filing service records them: wait for the last capture.
    await expect.poll(async () => (await system.billing.balance(accountId)).balance, { timeout: 15_000 }).toBe(expectedBalance);
    expect(await system.billing.balance(accountId)).toEqual({
      account_id: accountId,
      balance: expectedBalance,
      held: "0.00",
      available: expectedBalance,
    });
    expect((await client.account()).data).toMatchObject({ balance: expectedBalance, held: "0.00", available: expectedBalance });
    expect((await system.billing.captures(accountId)).sort()).toEqual(accepted.map((filing) => filing.answer.filing_id).sort());
    const report = await system.billing.reconcile();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("sends each filing part to its authority exactly once", async () => {
    const taxSubmits = await system.sim.acknowledgedSubmissions("tax");
    const parts = tracked
      .filter((filing) => filing.kind === "ct600")
      .flatMap((filing) =>
        filing.final?.parts ? filing.final.parts.map((part) => part.tax_correlation_id) : [filing.final?.tax_correlation_id],
      );
    expect(taxSubmits.map((entry) => entry.correlationId).sort()).toEqual(parts.sort());

    const registrySubmits = await system.sim.acknowledgedSubmissions("registry");
    const numbers = tracked.filter((filing) => filing.kind === "accounts").map((filing) => filing.final?.registry_submission_number);
    expect(registrySubmits.map((entry) => entry.submissionNumber).sort()).toEqual(numbers.sort());
  });

  // infra/observability against the live system: every metric a dashboard or alert query uses is
  // in some app's /metrics (parsed from the PromQL), and the submit-latency selector matches.
  it("exports every metric the Grafana dashboard and the alert rules query", async () => {
    const expositions = await Promise.all(
      APP_NAMES.map(async (app) => ({ app, text: await (await fetch(`${system.opsUrl(app)}/metrics`)).text() })),
    );
    const exported = exportedMetrics(expositions.map((exposition) => exposition.text));
    const queries = [...dashboardQueries(), ...alertQueries()];
    expect(queries.length).toBeGreaterThan(20);
    const missing = queries.flatMap((query) =>
      metricNamesOf(query.expr)
        .filter((name) => !isExported(name, exported))
        .map((name) => `${name} (${query.where})`),
    );
    expect(missing).toEqual([]);
    const gateway = expositions.find((exposition) => exposition.app === "gateway")?.text ?? "";
    expect(gateway).toMatch(/^http_request_duration_seconds_bucket\{[^}]*method="POST"[^}]*route="\/api\/v1\/filings\/ct600"/m);
    const filing = expositions.find((exposition) => exposition.app === "filing")?.text ?? "";
    expect(filing).toMatch(/^filing_outbox_published_total\{[^}]*type="filing\.accepted"[^}]*\} [1-9]/m);
    expect(filing).toMatch(/^filing_oldest_unfinished_age_seconds\{[^}]*type="ct600"[^}]*status="pending"[^}]*\} 0$/m);
  });

  it("admin status shows the system healthy, with these filings counted", async () => {
    const status = () => adminStatus(system);
    // 00000004's polls hang until the authority time-out (8 s), and nothing else is polled in the
    // last seconds before it gives up: on a slow machine enough of them fail in the breaker's
    // window to open the poll breaker, as they should. The report says so until the breaker's
    // reset time (5 s here, BREAKER_RESET_MS) lapses; it is the healthy report after that which is checked here.
    let { code, report } = await status();
    const patience = Date.now() + 45_000;
    while (report.problems.some((problem: string) => problem.startsWith("breaker ")) && Date.now() < patience) {
      expect(report.problems.every((problem: string) => /^breaker (tax-poll|registry-status) /.test(problem))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      ({ code, report } = await status());
    }
    expect(report.problems).toEqual([]);
    expect(code).toBe(0);
    expect(report.apps.map((app: { name: string; status: string }) => [app.name, app.status])).toEqual(
      APP_NAMES.map((app) => [app, "ready"]),
    );
    expect(report.breakers.length).toBeGreaterThanOrEqual(2);
    expect(report.breakers.every((breaker: { state: string }) => breaker.state !== "open")).toBe(true);
    expect(deadLetterQueues(report).every((queue) => queue.messages === 0)).toBe(true);
    const count = (status: string) => tracked.filter((filing) => filing.final?.status === status).length;
    expect(report.filings).toMatchObject({
      accepted: { last_60m: count("accepted") },
      rejected: { last_60m: count("rejected") },
      errored: { last_60m: count("error") },
    });
    expect(report.filings.submitted?.last_60m).toBeGreaterThanOrEqual(count("accepted") + count("rejected"));
    expect(report.filings.oldest_unfinished_age_seconds).toBeNull();
  });
});
