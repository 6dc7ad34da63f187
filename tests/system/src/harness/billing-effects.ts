import type { Filing } from "@dormant/contracts";
import pg from "pg";
import type { RunningSystem } from "./system.ts";

/** What billing did for one final filing, beside the filing service's outbox events about it. */
export interface BillingEffect {
  filingId: string;
  status: Filing["status"];
  holds: number;
  captures: number;
  releases: number;
  /** billing's inbox of outcome events applied (one row per filing and outcome, whatever was redelivered). */
  outcomesApplied: Array<{ outcome: string; messageId: string }>;
  /** The filing service's outbox events of that filing that billing consumes, by message id. */
  outboxEvents: Array<{ type: string; messageId: string; published: boolean }>;
}

const OUTCOME_EVENTS = ["filing.accepted", "filing.rejected", "filing.errored"];

async function query<R extends pg.QueryResultRow>(url: string, sql: string, values: unknown[]): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Per filing: billing's ledger entries (hold, capture, release), the outcome events billing
 * applied (its `filing_outcomes` inbox) and the outcome events the filing service's outbox holds
 * for it, read straight from both databases.
 */
export async function billingEffects(system: RunningSystem, accountId: string, filings: readonly Filing[]): Promise<BillingEffect[]> {
  const ids = filings.map((filing) => filing.filing_id);
  const ledger = await system.billing.ledger(accountId);
  const applied = await query<{ filing_id: string; outcome: string; message_id: string }>(
    system.databases.billing.url,
    "SELECT filing_id, outcome::text AS outcome, message_id FROM filing_outcomes WHERE filing_id = ANY($1)",
    [ids],
  );
  const outbox = await query<{ filing_id: string; type: string; message_id: string; published: boolean }>(
    system.databases.filing.url,
    `SELECT payload->>'filing_id' AS filing_id, type, message_id::text AS message_id, published_at IS NOT NULL AS published
       FROM outbox WHERE type = ANY($1) AND payload->>'filing_id' = ANY($2)`,
    [OUTCOME_EVENTS, ids],
  );
  return filings.map((filing) => {
    const entries = ledger.filter((entry) => entry.filing_id === filing.filing_id);
    const count = (kind: string) => entries.filter((entry) => entry.kind === kind).length;
    return {
      filingId: filing.filing_id,
      status: filing.status,
      holds: count("hold"),
      captures: count("capture"),
      releases: count("release"),
      outcomesApplied: applied
        .filter((row) => row.filing_id === filing.filing_id)
        .map((row) => ({ outcome: row.outcome, messageId: row.message_id })),
      outboxEvents: outbox
        .filter((row) => row.filing_id === filing.filing_id)
        .map((row) => ({ type: row.type, messageId: row.message_id, published: row.published })),
    };
  });
}
