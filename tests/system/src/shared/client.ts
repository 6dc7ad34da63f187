import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type AccountsSubmitRequest,
  type Ct600SubmitRequest,
  DormantApiError,
  DormantClient,
  type FilingProgress,
  FilingWaitTimeoutError,
} from "@dormant/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../harness/paths.ts";
import type { RunningSystem } from "../harness/system.ts";

const run = promisify(execFile);

const ct600 = (company: string, periodEnd: string): Ct600SubmitRequest => ({
  company_number: company,
  utr: "1234567890",
  period_end: periodEnd,
  credentials: { government_gateway_id: "SYSTEST-AGENT-01", government_gateway_password: "system-test-gateway-password" },
});
const accounts = (company: string, periodEnd: string): AccountsSubmitRequest => ({
  company_number: company,
  period_end: periodEnd,
  credentials: { company_auth_code: "A1B2C3" },
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Fast polls for tests (the default follows the API's advice: 30 s, then 5 minutes). */
const POLL = { pollIntervalMs: 250, timeoutMs: 60_000 };

// The typed client (@dormant/client, as built to dist/ and as packed for publishing) against the
// whole system as processes: sandbox and live submits, validations, polling to the final status,
// documents, the account, filters, and the API's errors as DormantApiError.
export function clientSuite(shared: () => RunningSystem): void {
  describe("@dormant/client against the running system", () => {
    let system: RunningSystem;
    let live: DormantClient;
    let test: DormantClient;
    let apiKeys: { liveKey: string; testKey: string };

    beforeAll(async () => {
      system = shared();
      apiKeys = await system.createAccount({ balancePence: 10_000 });
      live = new DormantClient({ apiKey: apiKeys.liveKey, baseUrl: system.gatewayUrl });
      test = new DormantClient({ apiKey: apiKeys.testKey, baseUrl: `${system.gatewayUrl}/api/v1` });
    });

    afterAll(async () => {
      const report = system?.crashReport();
      if (report) throw new Error(report);
    });

    it("sandbox: submits with a test key, waits for the final status, lists and downloads the documents", async () => {
      const submitted = await test.filings.submitCt600(ct600("00000001", "2026-03-31"));
      expect(submitted).toMatchObject({ status: "submitted", sandbox: true, expected_outcome: "accepted" });
      expect(submitted.filing_id).toMatch(/^fil_test_ct600_00000001_/);

      const progress: FilingProgress[] = [];
      const final = await test.filings.waitForFinal(submitted.filing_id, { ...POLL, onProgress: (p) => progress.push(p) });
      expect(final).toMatchObject({ filing_id: submitted.filing_id, status: "accepted", sandbox: true });
      expect(progress.map((p) => p.status)).toEqual(["accepted"]);

      const documents = await test.documents.list(submitted.filing_id);
      expect(documents.documents.map((document) => document.type).sort()).toEqual(["ct600_pdf", "ct600_xml"]);
      const pdf = await test.documents.download(submitted.filing_id, "ct600_pdf");
      expect(pdf.mediaType).toBe("application/pdf");
      expect(pdf.filename).toBe(documents.documents.find((document) => document.type === "ct600_pdf")!.name);
      expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
      const xml = await test.documents.download(submitted.filing_id, "ct600_xml");
      expect(xml.mediaType).toBe("application/xml");
      expect(Buffer.from(xml.bytes).toString("utf8")).toContain("GovTalkMessage");

      const rejected = await test.filings.submitAccounts(accounts("NI000002", "2026-03-31"), { idempotencyKey: "sandbox-same" });
      const again = await test.filings.submitAccounts(accounts("NI000002", "2026-03-31"), { idempotencyKey: "sandbox-same" });
      expect(again.filing_id).toBe(rejected.filing_id);
      expect((await test.filings.waitForFinal(rejected.filing_id, POLL)).status).toBe("rejected");
    });

    it("account.get answers the key's account", async () => {
      expect(await live.account.get()).toMatchObject({ balance: "100.00", held: "0.00", available: "100.00", currency: "GBP" });
    });

    it("validates without filing: a sandbox CT600, a contract problem, live accounts on a zero balance", async () => {
      const sandbox = await test.filings.validateCt600(ct600("00000001", "2026-03-31"));
      expect(sandbox).toMatchObject({ valid: true, sandbox: true, period_split: false, problems: [] });
      expect(sandbox.checks.map((check) => `${check.name}:${check.passed}`)).toEqual(
        expect.arrayContaining(["contract:true", "business_rules:true", "ct600_schema:true", "hmrc_business_rules:true"]),
      );

      // A body that breaks the contract is a report (200), not a thrown 400.
      const broken = await test.filings.validateCt600({ ...ct600("00000001", "2026-03-31"), utr: "123" });
      expect(broken).toMatchObject({ valid: false, derived_values: null, checks: [{ name: "contract", passed: false }] });
      expect(broken.problems).toEqual([expect.objectContaining({ field: "utr", code: "INVALID_FIELD" })]);

      const empty = await system.createAccount({ balancePence: 0 });
      const broke = new DormantClient({ apiKey: empty.liveKey, baseUrl: system.gatewayUrl });
      const report = await broke.filings.validateAccounts(accounts("00000001", "2026-03-31"));
      expect(report).toMatchObject({ valid: true, problems: [], parts: [{ part_number: 1 }] });
      expect(report).not.toHaveProperty("sandbox");
      expect((await broke.filings.list()).filings).toEqual([]);
      expect(await broke.account.get()).toMatchObject({ balance: "0.00", held: "0.00" });
    });

    it("live: submits, reports each status change until final, lists with filters, downloads what was filed", async () => {
      const acceptedCt600 = await live.filings.submitCt600(ct600("00000001", "2026-03-31"), { idempotencyKey: "client-live-ct600" });
      expect(acceptedCt600).toMatchObject({ status: "submitted" });
      expect(acceptedCt600.filing_id).toMatch(/^fil_(?!test_)/);
      const rejectedAccounts = await live.filings.submitAccounts(accounts("00000002", "2026-03-31"));

      const progress: FilingProgress[] = [];
      const final = await live.filings.waitForFinal(acceptedCt600.filing_id, { ...POLL, onProgress: (p) => progress.push(p) });
      expect(final.status).toBe("accepted");
      expect(progress.at(-1)).toMatchObject({ status: "accepted", filingId: acceptedCt600.filing_id });
      expect(progress[0]!.previousStatus).toBeUndefined();
      expect(progress.map((p) => p.status)).toEqual([...new Set(progress.map((p) => p.status))]);
      expect((await live.filings.waitForFinal(rejectedAccounts.filing_id, POLL)).status).toBe("rejected");

      // The same Idempotency-Key and body answer the same filing.
      const replay = await live.filings.submitCt600(ct600("00000001", "2026-03-31"), { idempotencyKey: "client-live-ct600" });
      expect(replay.filing_id).toBe(acceptedCt600.filing_id);

      const all = await live.filings.list();
      expect(all.filings.map((filing) => filing.filing_id)).toEqual([rejectedAccounts.filing_id, acceptedCt600.filing_id]);
      expect((await live.filings.list({ type: "ct600" })).filings.map((f) => f.filing_id)).toEqual([acceptedCt600.filing_id]);
      expect((await live.filings.list({ status: "rejected" })).filings.map((f) => f.filing_id)).toEqual([rejectedAccounts.filing_id]);
      expect((await live.filings.list({ company_number: "00000002" })).filings.map((f) => f.filing_id)).toEqual([
        rejectedAccounts.filing_id,
      ]);
      const page = await live.filings.list({ limit: 1, offset: 1 });
      expect(page.filings.map((f) => f.filing_id)).toEqual([acceptedCt600.filing_id]);
      expect(page.pagination).toMatchObject({ total: 2, limit: 1, offset: 1 });

      const documents = await live.documents.list(acceptedCt600.filing_id);
      expect(documents.documents.map((document) => document.type)).toContain("ct600_xml");
      const xml = await live.documents.download(acceptedCt600.filing_id, "ct600_xml", { part: 1 });
      expect(xml.mediaType).toBe("application/xml");
      expect(xml.filename).toBe(documents.documents.find((document) => document.type === "ct600_xml")!.name);
      expect(Buffer.from(xml.bytes).toString("utf8")).toContain("<IRmark");
    });

    it("companies.deadlines answers the registry's periods (live) and the sandbox's (test key)", async () => {
      const liveDeadlines = await live.companies.deadlines("00000001");
      expect(liveDeadlines).toMatchObject({ company_number: "00000001" });
      expect(liveDeadlines.accounts_periods.map((period) => period.kind)).toEqual(["current", "next"]);
      expect(liveDeadlines.ct600_periods.length).toBeGreaterThanOrEqual(2);
      expect("sandbox" in liveDeadlines).toBe(false);
      const sandbox = await test.companies.deadlines("00000001");
      expect(sandbox).toMatchObject({ company_number: "00000001", sandbox: true });
      expect(await test.companies.deadlines("00000001")).toEqual(sandbox);
      await expect(live.companies.deadlines("123")).rejects.toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    });

    it("throws DormantApiError with status, code, details and requestId for the API's 4xx answers", async () => {
      const invalid = await live.filings.submitCt600({ ...ct600("00000001", "2026-03-31"), utr: "123" }).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(DormantApiError);
      const validation = invalid as DormantApiError;
      expect(validation).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
      expect(validation.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: "utr" })]));
      expect(validation.requestId).toMatch(UUID);
      expect(validation.idempotencyKey).toMatch(UUID);

      await expect(live.filings.get("fil_does_not_exist")).rejects.toMatchObject({ status: 404, code: "FILING_NOT_FOUND", details: [] });
      await expect(
        live.filings.submitCt600(ct600("00000001", "2026-06-30"), { idempotencyKey: "client-live-ct600" }),
      ).rejects.toMatchObject({
        status: 409,
        code: "IDEMPOTENCY_KEY_CONFLICT",
        idempotencyKey: "client-live-ct600",
      });
      const stranger = new DormantClient({ apiKey: "api_live_nokey_nosecret", baseUrl: system.gatewayUrl });
      await expect(stranger.account.get()).rejects.toMatchObject({ status: 401, code: "INVALID_KEY" });
      const submitted = await live.filings.submitAccounts(accounts("SC000001", "2026-03-31"));
      const notYet = await live.documents.list(submitted.filing_id).catch((e: unknown) => e);
      expect(notYet).toMatchObject({ status: 400, code: "FILING_NOT_COMPLETE" });
      await expect(live.filings.waitForFinal(submitted.filing_id, { timeoutMs: 1, pollIntervalMs: 1 })).rejects.toBeInstanceOf(
        FilingWaitTimeoutError,
      );
      expect((await live.filings.waitForFinal(submitted.filing_id, POLL)).status).toBe("accepted");
    });

    it("packs into a tarball that works in an empty project with plain Node", async () => {
      const dir = await mkdtemp(join(tmpdir(), "dormant-client-pack-"));
      try {
        await run("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: join(repoRoot, "packages/client") });
        const tarball = (await readdir(dir)).find((name) => name.endsWith(".tgz"))!;
        const { stdout: listing } = await run("tar", ["-tzf", join(dir, tarball)]);
        expect(listing.split("\n")).toEqual(
          expect.arrayContaining(["package/package.json", "package/README.md", "package/dist/index.js", "package/dist/index.d.ts"]),
        );
        const files = listing.split("\n").filter(Boolean);
        expect(files.filter((file) => !/^package\/(package\.json|README\.md|dist\/[\w/-]+\.(js|d\.ts))$/.test(file))).toEqual([]);

        const project = join(dir, "project");
        await run("mkdir", [project]);
        await writeFile(join(project, "package.json"), JSON.stringify({ name: "empty-project", private: true }));
        await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", join(dir, tarball)], { cwd: project });
        await writeFile(
          join(project, "consumer.mjs"),
          [
            'import { DormantClient, DormantApiError } from "@dormant/client";',
            "const client = new DormantClient({ apiKey: process.env.DORMANT_API_KEY, baseUrl: process.env.DORMANT_BASE_URL });",
            "const account = await client.account.get();",
            "const body = { company_number: 'SC000001', utr: '1234567890', period_end: '2026-03-31',",
            "  credentials: { government_gateway_id: 'AGENT', government_gateway_password: 'secret' } };",
            "const submitted = await client.filings.submitCt600(body);",
            "const final = await client.filings.waitForFinal(submitted.filing_id, { timeoutMs: 10000, pollIntervalMs: 200 });",
            "const failure = await client.filings.get('fil_none').catch((error) => error);",
            "console.log(JSON.stringify({ currency: account.currency, sandbox: submitted.sandbox, filing_id: final.filing_id,",
            "  status: final.status, error: failure instanceof DormantApiError ? [failure.status, failure.code] : String(failure) }));",
          ].join("\n"),
        );
        const { stdout } = await run(process.execPath, ["consumer.mjs"], {
          cwd: project,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DORMANT_API_KEY: apiKeys.testKey, DORMANT_BASE_URL: system.gatewayUrl },
        });
        expect(JSON.parse(stdout)).toEqual({
          currency: "GBP",
          sandbox: true,
          filing_id: expect.stringMatching(/^fil_test_ct600_SC000001_/),
          status: "accepted",
          error: [404, "FILING_NOT_FOUND"],
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 90_000);
  });
}
