import { parseGbpToPence } from "@dormant/contracts";

export const MIN_TOP_UP_PENCE = 500;
export const MAX_TOP_UP_PENCE = 1_000_000;

export type TopUpAmount = { ok: true; pence: number } | { ok: false; error: string };

/**
 * The "Amount (£)" field to integer pence by string arithmetic (parseGbpToPence: digits with at
 * most two decimals, no exponent, sign or separator; never a binary float), then £5 to £10,000.
 */
export function parseTopUpAmount(text: string): TopUpAmount {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, error: "Enter an amount in pounds, for example 50 or 50.00." };
  const pence = parseGbpToPence(trimmed);
  if (pence === null)
    return { ok: false, error: "Enter the amount in pounds as digits with at most 2 decimal places, for example 50 or 50.00." };
  if (pence < BigInt(MIN_TOP_UP_PENCE) || pence > BigInt(MAX_TOP_UP_PENCE))
    return { ok: false, error: "Enter an amount from £5.00 to £10,000.00." };
  return { ok: true, pence: Number(pence) };
}
