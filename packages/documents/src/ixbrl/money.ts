/**
 * Amounts arrive in integer pence and are shown in pounds. A document is either entirely in whole
 * pounds (`decimals="0"`) or entirely in pounds and pence (`decimals="2"`), never a mix.
 */

export type MoneyDecimals = 0 | 2;

/** 0 when every amount is a whole number of pounds, otherwise 2. */
export function decimalsFor(amountsInPence: readonly number[]): MoneyDecimals {
  return amountsInPence.every((pence) => pence % 100 === 0) ? 0 : 2;
}

/** The magnitude of `pence` in pounds with thousands separators: 123456 -> "1,234" or "1,234.56". */
export function formatPounds(pence: number, decimals: MoneyDecimals): string {
  if (!Number.isSafeInteger(pence)) throw new RangeError(`Amount must be an integer number of pence: ${pence}`);
  if (decimals === 0 && pence % 100 !== 0) throw new RangeError(`${pence} pence is not a whole number of pounds`);
  const magnitude = Math.abs(pence);
  const pounds = groupThousands(Math.floor(magnitude / 100));
  return decimals === 0 ? pounds : `${pounds}.${String(magnitude % 100).padStart(2, "0")}`;
}

/** A non-negative integer with comma thousands separators: 1234567 -> "1,234,567". */
export function groupThousands(value: number): string {
  return value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
