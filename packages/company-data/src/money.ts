/**
 * Money as integer pence. The public API carries amounts as JSON numbers in pounds (20.00 GBP
 * is `20` or `20.0`); they are turned into pence once, checked, and all arithmetic happens on
 * integers so that sums never pick up binary floating-point errors.
 */

/** An amount in pence: a safe integer, possibly negative. */
export type Pence = number;

function isPence(value: number): boolean {
  return Number.isSafeInteger(value);
}

/**
 * Converts pounds to pence. Throws a RangeError for NaN, ±Infinity, more than two decimal
 * places (0.001, or 0.1 + 0.2 = 0.30000000000000004) or amounts beyond what integers hold
 * exactly.
 */
export function toPence(pounds: number): Pence {
  if (typeof pounds !== "number" || !Number.isFinite(pounds)) {
    throw new RangeError(`amount must be a finite number, got ${String(pounds)}`);
  }
  const pence = Math.round(pounds * 100);
  if (!isPence(pence)) throw new RangeError(`amount ${pounds} is too large`);
  // The nearest double to pence/100 is the amount itself exactly when it has at most two
  // decimal places.
  if (pence / 100 !== pounds) {
    throw new RangeError(`amount ${pounds} has more than two decimal places`);
  }
  return pence === 0 ? 0 : pence; // no negative zero
}

/** True when `toPence` accepts the value. */
export function isMoneyAmount(value: unknown): value is number {
  if (typeof value !== "number") return false;
  try {
    toPence(value);
    return true;
  } catch {
    return false;
  }
}

/** Pence back to a pounds number for JSON (10050 -> 100.5). Exact for every safe integer. */
export function fromPence(pence: Pence): number {
  if (!isPence(pence)) throw new RangeError(`pence must be a safe integer, got ${pence}`);
  const pounds = pence / 100;
  return pounds === 0 ? 0 : pounds;
}

/** Formats pence with two decimals and no grouping: 2000 -> "20.00", -5 -> "-0.05". */
export function formatPence(pence: Pence): string {
  if (!isPence(pence)) throw new RangeError(`pence must be a safe integer, got ${pence}`);
  const sign = pence < 0 ? "-" : "";
  const absolute = Math.abs(pence);
  const pounds = Math.trunc(absolute / 100);
  const remainder = absolute - pounds * 100;
  return `${sign}${pounds}.${String(remainder).padStart(2, "0")}`;
}
