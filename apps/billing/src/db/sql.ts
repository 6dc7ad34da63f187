import type pg from "pg";
import { sqlPool, type BillingDb } from "./client.ts";

/** A named (prepared once per connection) statement with its parameters. */
export interface SqlStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Runs one statement on its own (an implicit transaction: it commits or rolls back as a whole) on
 * the pool under `db`, bypassing Prisma. The money moves are SQL functions called this way (see
 * prisma/migrations/20261122080000_billing_money_moves_in_one_statement).
 *
 * `signal`: fired before the statement is sent, nothing is sent; fired while it runs, the statement
 * is cancelled on the server (pg_cancel_backend), so it rolls back unless it had already committed;
 * the connection is then closed rather than reused, so the cancel can never hit a later statement.
 * Either way (and unless it committed first) this throws StatementCancelled.
 */
export async function runStatement<Row>(db: BillingDb, statement: SqlStatement, signal?: AbortSignal): Promise<Row[]> {
  const pool = sqlPool(db);
  if (!signal) return (await pool.query<Row & pg.QueryResultRow>(statement)).rows;
  if (signal.aborted) throw new StatementCancelled(statement.name);
  const client = await pool.connect();
  if (signal.aborted) {
    client.release();
    throw new StatementCancelled(statement.name);
  }
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    const pid = (client as unknown as { processID?: number }).processID;
    if (typeof pid === "number") void pool.query("SELECT pg_cancel_backend($1)", [pid]).catch(() => undefined);
  };
  signal.addEventListener("abort", cancel, { once: true });
  try {
    return (await client.query<Row & pg.QueryResultRow>(statement)).rows;
  } catch (error) {
    throw cancelled && sqlState(error) === QUERY_CANCELED ? new StatementCancelled(statement.name, error) : error;
  } finally {
    signal.removeEventListener("abort", cancel);
    client.release(cancelled);
  }
}

const QUERY_CANCELED = "57014";

/** The caller stopped waiting (its AbortSignal fired) before the statement committed: nothing was done. */
export class StatementCancelled extends Error {
  constructor(statementName: string, cause?: unknown) {
    super(`${statementName} was cancelled before it committed: its caller stopped waiting`, cause === undefined ? {} : { cause });
    this.name = "StatementCancelled";
  }
}

/** The SQLSTATE of a database error (node-postgres puts it on `code`), if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
