/**
 * Money is integer pence everywhere (bigint in the database layer, safe integers on the bus);
 * decimal strings like "80.00" only at the edges (admin output, webhook payloads, error details).
 */

/** The largest single credit (top-up or opening balance): 1,000,000,000.00 GBP. */
export const MAX_CREDIT_PENCE = 100_000_000_000n;

/** Whole pence as a decimal string of pounds: 8000 -> "80.00", -5 -> "-0.05". */
export function formatPence(pence: bigint | number): string {
  const value = BigInt(pence);
  const sign = value < 0n ? "-" : "";
  const magnitude = value < 0n ? -value : value;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, "0")}`;
}

const GBP_AMOUNT = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/**
 * "100", "100.5" or "100.50" pounds to integer pence, by string arithmetic (no binary floats).
 * Anything else (signs, exponents, separators, currency symbols, a third decimal) is null.
 */
export function parseGbpToPence(text: string): bigint | null {
  const match = GBP_AMOUNT.exec(text);
  if (!match) return null;
  const [, pounds, fraction = ""] = match;
  return BigInt(pounds!) * 100n + BigInt(fraction.padEnd(2, "0"));
}

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
