import type { Filing } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "./harness/api-client.ts";
import { accountsBody, ct600Body } from "./harness/companies.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";
import { waitForFinal } from "./harness/wait-final.ts";
import { WebhookListener } from "./harness/webhook-listener.ts";

// Issue 25, section 1: the authority takes a submission in and acknowledges it, the submitter
// records it and schedules its polls, but the filing service that waited for the answer is
// killed (kill -9) before the answer reaches it: the record of the submit (IRmark, time, the
// message as sent) is lost with that answer. The submission's polls then move it to accepted.
// Every such filing (a single-period CT600, a split CT600 whose part 2 answer is lost, dormant
// accounts) must get its documents and exactly one `filing.documents_ready` webhook.
//
// How the answers are lost: the simulator answers every request after SLOW_MS; once the split
// CT600's part 1 has been answered (part 2 is then on its way), the two other filings are
// submitted, and the filing service is killed while the three submissions wait for their
// answers at the authority. One kill, one system for the file.
const SLOW_MS = 8_000;
/** After the split's part 1 was answered: time for the other submits to reach the authority, well within SLOW_MS. */
const KILL_AFTER_MS = 3_500;

/** Polls `check` every 100 ms until it holds; throws after `timeoutMs`. */
async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SINGLE = "73000001";
// A company whose registry record allows the 16-month period (as filing-outcomes.test.ts files it).
const SPLIT = "00000001";
const ACCOUNTS = "73000003";

describe("a submit whose answer is lost on its way back to the filing service, then accepted", () => {
  let system: RunningSystem;
  let listener: WebhookListener;
  let client: ApiClient;
  const filings = new Map<string, Filing>();

  beforeAll(async () => {
    // The submitters wait for the slowed authority longer than it takes to answer (their default
    // 8 s would end the submission in doubt, which in-doubt.test.ts covers).
    const submitter = { AUTHORITY_TIMEOUT_MS: "20000" };
    system = await startSystem({ label: "lost_submit_answer", env: { "tax-submitter": submitter, "registry-submitter": submitter } });
    listener = await WebhookListener.start();
    const account = await system.createAccount({ balancePence: 10_000, name: "lost submit answer" });
    client = system.client(account.liveKey);
    const endpoint = await client.request<{ id: string }>("POST", "/webhook_endpoints", {
      body: { url: listener.url, events: ["filing.accepted", "filing.documents_ready"] },
    });
    expect(endpoint.status).toBe(201);

    await system.sim.setFaults("tax", { slowMs: SLOW_MS });
    await system.sim.setFaults("registry", { slowMs: SLOW_MS });
    // 16 months: two CT600 parts, sent one after the other.
    const split = client.submit("ct600", ct600Body(SPLIT, "2026-07-31", { period: { start: "2025-04-01" } }), "lost-answer-split");
    await until(async () => (await system.sim.received({ target: "tax", company: SPLIT, kind: "submit" })).length === 1, 60_000);
    const single = client.submit("ct600", ct600Body(SINGLE, "2026-03-31", { period: { start: "2025-04-01" } }), "lost-answer-single");
    const accounts = client.submit("accounts", accountsBody(ACCOUNTS, "2026-03-31"), "lost-answer-accounts");
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
    await system.crash("filing", { downMs: 1_000 });
    await system.sim.clearFaults();
    // None of the three heard its 202: the answers were lost with the filing service.
    for (const answer of await Promise.all([split, single, accounts])) expect(answer.status).not.toBe(202);

    // Each was taken in by its authority once (the split once per part), and ends accepted.
    expect(await system.sim.received({ target: "tax", company: SPLIT, kind: "submit" })).toHaveLength(2);
    expect(await system.sim.received({ target: "tax", company: SINGLE, kind: "submit" })).toHaveLength(1);
    expect(await system.sim.received({ target: "registry", company: ACCOUNTS, kind: "submit" })).toHaveLength(1);
    const listed = await client.allFilings();
    expect(listed).toHaveLength(3);
    for (const filing of listed) filings.set(filing.company_number, await waitForFinal(client, filing.filing_id, { timeoutMs: 120_000 }));
  }, 360_000);

  afterAll(async () => {
    await listener?.close();
    await system?.stop();
  });

  /** Waits for the filing's documents (the PDFs named) and its one documents_ready webhook. */
  async function expectDocuments(company: string, pdfs: string[]): Promise<void> {
    const filing = filings.get(company)!;
    expect(filing.status).toBe("accepted");
    await until(async () => listener.ofType("filing.documents_ready", filing.filing_id).length > 0, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(listener.ofType("filing.documents_ready", filing.filing_id)).toHaveLength(1);
    const documents = await client.listDocuments(filing.filing_id);
    expect(documents.status).toBe(200);
    const types = documents.data!.documents.map((document) => document.type);
    for (const pdf of pdfs) expect(types.filter((type) => type === pdf)).toHaveLength(pdfs.filter((p) => p === pdf).length);
    expect(listener.ofType("filing.accepted", filing.filing_id)).toHaveLength(1);
  }

  it("tax, a single-period CT600: its ct600_pdf and ct600_xml, one documents_ready", async () => {
    await expectDocuments(SINGLE, ["ct600_pdf", "ct600_xml"]);
    expect(filings.get(SINGLE)).toMatchObject({ tax_status: "accepted", tax_iru_number: expect.any(String) });
  });

  it("tax, a split CT600 whose part 2 answer was lost: both parts' documents, one documents_ready", async () => {
    await expectDocuments(SPLIT, ["ct600_pdf", "ct600_pdf", "ct600_xml", "ct600_xml"]);
    expect(filings.get(SPLIT)!.parts?.map((part) => part.tax_status)).toEqual(["accepted", "accepted"]);
  });

  it("registry, dormant accounts: the accounts_pdf and the iXBRL, one documents_ready", async () => {
    await expectDocuments(ACCOUNTS, ["accounts_pdf", "ixbrl_accounts"]);
    // No second announcement arrives later (the documents sweep and the consumer write it once).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const filing of filings.values()) expect(listener.ofType("filing.documents_ready", filing.filing_id)).toHaveLength(1);
  });
});
