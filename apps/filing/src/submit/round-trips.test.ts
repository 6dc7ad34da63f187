import type { AccountsSubmitResponse, Ct600SubmitResponse } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";

// Counts what one filing costs the filing database, end to end: every statement the filing
// service sends to PostgreSQL (each is a round trip) from the submit to the last document, by
// the part of the service that sent it, and the transactions they form. Statements are seen
// where they leave for the server (pg's Client.query, under Prisma's driver adapter), so BEGIN
// and COMMIT of interactive transactions count too. The outbox relay's polling is switched off
// (interval of minutes): only the relay runs that commits wake are counted. The simulator answers
// after 2 s and the first poll comes after 1 s, so that a CT600 part is polled once before its
// outcome (as in the live benchmark, which runs the simulator's fast timing). The figures are in
// README.md ("Database round trips"); the bounds below keep them from creeping back.

interface Statement {
  at: number;
  sql: string;
  /** The pg client (connection) it ran on: statements between BEGIN and COMMIT on one connection are one transaction. */
  connection: number;
}

let h: FilingHarness;
let database = "";
/** The test's own connection (its checks are not the service's statements). */
let probe: pg.Client;
const seen: Statement[] = [];
const connections = new WeakMap<object, number>();
let nextConnection = 1;
const originalQuery = pg.Client.prototype.query;

beforeAll(async () => {
  h = await startFilingHarness("roundtrips", {
    billing: true,
    taxSubmitter: true,
    registrySubmitter: true,
    env: { OUTBOX_RELAY_INTERVAL_MS: "600000" },
  });
  // As in the live benchmark (the simulator's fast timing): the first poll finds no answer yet,
  // so a CT600 part goes through tax.part_polling before its outcome.
  await fetch(`${h.sim.urls.control}/timing`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ outcomeDelayMs: 2000 }),
  });
  database = new URL(h.database.url).pathname.slice(1);
  probe = new pg.Client({ connectionString: h.database.url });
  await probe.connect();
  pg.Client.prototype.query = function (this: pg.Client & { database?: string }, ...args: unknown[]) {
    if (this.database === database && this !== probe) {
      const config = args[0] as string | { text: string };
      const sql = typeof config === "string" ? config : config.text;
      if (!connections.has(this)) connections.set(this, nextConnection++);
      seen.push({ at: Date.now(), sql, connection: connections.get(this)! });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
});
afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await probe?.end();
  await h?.teardown();
});

interface Tally {
  statements: number;
  transactions: number;
}

/** Statements and transactions (BEGIN … COMMIT on one connection is one; a statement outside is one too). */
function tally(statements: Statement[]): Tally {
  const result: Tally = { statements: 0, transactions: 0 };
  const open = new Set<number>();
  for (const s of statements) {
    const head = s.sql.trim().split(/\s+/)[0]!.toUpperCase();
    result.statements++;
    if (head === "BEGIN") {
      open.add(s.connection);
      result.transactions++;
    } else if (head === "COMMIT" || head === "ROLLBACK") {
      open.delete(s.connection);
    } else if (!open.has(s.connection)) {
      result.transactions++;
    }
  }
  return result;
}

/** The filing.documents consumer's statements (src/documents): tagged `/* documents *\/`. */
const byDocumentsConsumer = (s: Statement) => s.sql.includes("/* documents */");

async function quiet(ms = 700): Promise<void> {
  for (;;) {
    const last = seen.at(-1)?.at ?? 0;
    await new Promise((resolve) => setTimeout(resolve, ms));
    if ((seen.at(-1)?.at ?? 0) === last) return;
  }
}

/** One filing from its submit to its last document, alone on the service. */
interface Measured {
  submit: Tally;
  after: Tally;
  total: Tally;
  /** After the answer, without the documents consumer's statements: outcomes and the outbox relay. */
  outcomesAndRelay: Tally;
  documents: Tally;
  sql: string[];
}

async function measure(submit: () => Promise<{ filing_id: string }>, pdfs: number): Promise<Measured> {
  await quiet();
  seen.length = 0;
  const answer = await submit();
  const answeredAt = Date.now();
  await h.waitForEvent(answer.filing_id, 20_000);
  const rendered = async () =>
    Number(
      (
        await probe.query("SELECT count(*) FROM documents WHERE filing_id = $1 AND type IN ('ct600_pdf', 'accounts_pdf')", [
          answer.filing_id,
        ])
      ).rows[0].count,
    );
  await waitFor(async () => (await rendered()) === pdfs, {
    timeoutMs: 20_000,
    what: "the PDFs",
  });
  await quiet();
  const mine = [...seen];
  return {
    submit: tally(mine.filter((s) => s.at <= answeredAt)),
    after: tally(mine.filter((s) => s.at > answeredAt)),
    total: tally(mine),
    outcomesAndRelay: tally(mine.filter((s) => s.at > answeredAt && !byDocumentsConsumer(s))),
    documents: tally(mine.filter(byDocumentsConsumer)),
    sql: mine.map((s) => `${s.at <= answeredAt ? "submit" : "after "} c${s.connection} ${s.sql.replace(/\s+/g, " ").slice(0, 160)}`),
  };
}

function report(name: string, result: Measured): void {
  const lines = [
    `${name}: ${result.total.statements} statements, ${result.total.transactions} transactions`,
    `  until the submit's answer: ${result.submit.statements} statements, ${result.submit.transactions} transactions`,
    `  after it: ${result.after.statements} statements, ${result.after.transactions} transactions`,
    `    outcomes and outbox relay: ${result.outcomesAndRelay.statements} statements, ${result.outcomesAndRelay.transactions} transactions`,
    `    documents consumer (PDFs): ${result.documents.statements} statements, ${result.documents.transactions} transactions`,
  ];
  if (process.env.ROUND_TRIPS_SQL) lines.push(...result.sql.map((line) => `    ${line}`));
  process.stdout.write(`${lines.join("\n")}\n`);
}

describe("database round trips per filing", () => {
  it("a single-period CT600, from submit to its PDF", async () => {
    const caller = h.caller({ account_id: await h.openAccount(10_000) });
    const result = await measure(
      async () =>
        (await h.submitCt600(caller, { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" })) as Ct600SubmitResponse,
      1,
    );
    report("CT600", result);
    // Claim look-up, the pending filing, the acknowledgement (answered from what it wrote).
    expect(result.submit).toEqual({ statements: 3, transactions: 3 });
    // tax.part_polling and tax.part_outcome: a read and a write each; the relay: claim and mark.
    expect(result.outcomesAndRelay.statements).toBeLessThanOrEqual(6);
    expect(result.outcomesAndRelay.transactions).toBe(result.outcomesAndRelay.statements);
    // The documents consumer: its read, then the PDF stored with the message's inbox row; then,
    // the PDFs complete, filing.documents_ready: the filing read for its view, and one statement
    // marking it and writing the event.
    expect(result.documents).toEqual({ statements: 4, transactions: 4 });
    expect(result.total.statements).toBe(result.submit.statements + result.outcomesAndRelay.statements + result.documents.statements);
  });

  it("a split CT600, from submit to both PDFs", async () => {
    const caller = h.caller({ account_id: await h.openAccount(10_000) });
    const result = await measure(
      async () =>
        (await h.submitCt600(caller, { company_number: "00000005", utr: "1234567890", period_end: "2026-10-31" })) as Ct600SubmitResponse,
      2,
    );
    report("CT600 split", result);
    expect(result.submit).toEqual({ statements: 4, transactions: 4 });
    expect(result.outcomesAndRelay.statements).toBeLessThanOrEqual(10);
    expect(result.outcomesAndRelay.transactions).toBe(result.outcomesAndRelay.statements);
    // Both parts' PDFs in one go (one event when the filing is accepted), then documents_ready.
    expect(result.documents).toEqual({ statements: 4, transactions: 4 });
  });

  it("accounts, from submit to the PDF", async () => {
    const caller = h.caller({ account_id: await h.openAccount(10_000) });
    const result = await measure(
      async () =>
        (await h.submitAccounts(caller, {
          company_number: "00000001",
          period_end: "2026-03-31",
          approval: { date: "2026-05-01" },
        })) as AccountsSubmitResponse,
      1,
    );
    report("accounts", result);
    expect(result.submit).toEqual({ statements: 3, transactions: 3 });
    // registry.status (the registry's PENDING, shown on the filing) and registry.outcome: a read
    // and a write each; the relay: claim and mark.
    expect(result.outcomesAndRelay.statements).toBeLessThanOrEqual(6);
    expect(result.outcomesAndRelay.transactions).toBe(result.outcomesAndRelay.statements);
    expect(result.documents).toEqual({ statements: 4, transactions: 4 });
  });
});
