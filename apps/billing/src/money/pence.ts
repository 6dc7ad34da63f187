/**
 * Money is integer pence everywhere (bigint in the database layer, safe integers on the bus);
 * decimal strings like "80.00" only at the edges (admin output, webhook payloads, error details).
 * Parsing and formatting those strings is the platform's one money module (@dormant/contracts,
 * api/money.ts); what is billing's own is here.
 */
export { formatPence, parseGbpToPence } from "@dormant/contracts";

/** The largest single credit (top-up or opening balance): 1,000,000,000.00 GBP. */
export const MAX_CREDIT_PENCE = 100_000_000_000n;

/** Pence as a JavaScript number for the bus contracts; refuses what a number cannot hold exactly. */
export function penceToNumber(pence: bigint): number {
  if (pence > BigInt(Number.MAX_SAFE_INTEGER) || pence < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${pence} pence is beyond a safe integer`);
  }
  return Number(pence);
}

/** Whole pence given as a bigint or a safe integer number, as a bigint; anything else throws. */
export function toPence(value: bigint | number, what: string): bigint {
  if (typeof value === "bigint") return value;
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be whole pence, got ${value}`);
  return BigInt(value);
}
