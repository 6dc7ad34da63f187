import { AppError } from "@dormant/contracts";
import type { BillingDb } from "../db/client.ts";
import { runStatement, StatementCancelled } from "../db/sql.ts";
import { newId } from "../ids.ts";
import { conflictingReuse, insufficientBalance } from "./errors.ts";

export interface PlaceHoldInput {
  accountId: string;
  filingId: string;
  amountPence: bigint;
}

export interface PlacedHold {
  holdId: string;
  /** What remains available after this hold (never below zero: an account owing after a late charge has nothing available). */
  availablePence: bigint;
  /** False when the filing already had this hold (a retried request). */
  created: boolean;
}

/**
 * Reserves the fee of a filing before anything is sent to an authority. One statement, one round
 * trip: the SQL function `billing_place_hold` locks the account row, checks the available balance
 * (balance minus open holds) and writes the hold and its ledger entry, all in the statement's own
 * transaction, so concurrent holds can never together exceed the balance (the database's
 * no-overdraw rule would refuse it anyway). Idempotent per filing: a hold that is open or captured is returned as
 * it is; one released earlier (a submit that failed before reaching the authority) is opened
 * again when the same filing is held again.
 * Throws INSUFFICIENT_BALANCE (402) with the required and available amounts, and
 * IDEMPOTENCY_KEY_CONFLICT when the filing is held for another account or amount.
 * `signal`: when it fires before the commit (the caller stopped waiting), the statement is
 * cancelled and nothing is held (SERVICE_UNAVAILABLE, retryable).
 */
export async function placeHold(db: BillingDb, input: PlaceHoldInput, signal?: AbortSignal): Promise<PlacedHold> {
  const { accountId, filingId, amountPence } = input;
  if (amountPence <= 0n) throw new RangeError("a hold must be for a positive amount");
  let rows: Array<{ result: "created" | "existing" | "insufficient" | "conflict"; hold_id: string | null; available_pence: string }>;
  try {
    rows = await runStatement(
      db,
      {
        name: "billing_place_hold",
        text: "SELECT result, hold_id, available_pence FROM billing_place_hold($1, $2, $3, $4)",
        values: [accountId, filingId, amountPence.toString(), newId("hold")],
      },
      signal,
    );
  } catch (error) {
    if (error instanceof StatementCancelled) {
      throw new AppError("SERVICE_UNAVAILABLE", "The hold request expired before it was committed", { retryable: true, cause: error });
    }
    throw error;
  }
  const row = rows[0];
  if (!row) throw new Error("billing_place_hold answered no row");
  // An account owing after a late charge (available < 0) has nothing to spend: shown as zero, as in the 402.
  const available = BigInt(row.available_pence) < 0n ? 0n : BigInt(row.available_pence);
  switch (row.result) {
    case "created":
    case "existing":
      if (row.hold_id === null) throw new Error(`billing_place_hold answered ${row.result} without a hold id`);
      return { holdId: row.hold_id, availablePence: available, created: row.result === "created" };
    case "insufficient":
      throw insufficientBalance(amountPence, available);
    case "conflict":
      throw conflictingReuse(`Filing ${filingId} is already held for a different account or amount`);
  }
}

/**
 * Gives back the open hold of a filing (a submit that failed before reaching the authority), in
 * one statement (`billing_release_hold`: lock the hold's account, move the hold, write the entry).
 * Idempotent: releasing an unknown, already released or captured hold changes nothing and
 * answers false.
 */
export async function releaseHold(db: BillingDb, input: { filingId: string; reason: string }): Promise<{ released: boolean }> {
  const rows = await runStatement<{ released: boolean }>(db, {
    name: "billing_release_hold",
    text: "SELECT billing_release_hold($1, $2) AS released",
    values: [input.filingId, input.reason],
  });
  return { released: rows[0]?.released === true };
}
