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
