import { z } from "zod";
import { fieldError } from "./primitives.ts";

const MAX_AMOUNT = 1_000_000_000;

/** A finite number of at most 1e9 in absolute value with at most 2 decimal places. */
export function isWholePenceAmount(value: unknown): value is number {
  return (
    typeof value === "number" &&
    Number.isFinite(value) &&
    Math.abs(value) <= MAX_AMOUNT &&
    Math.abs(value * 100 - Math.round(value * 100)) < 1e-6
  );
}

/**
 * An amount in currency units (pounds) as the spec's JSON numbers carry it, limited to whole
 * pence so that it converts exactly to integer pence, which is what all arithmetic uses.
 */
export function moneyAmount({ allowNegative }: { allowNegative: boolean }) {
  const base = z
    .number({ error: fieldError("must be a number") })
    .refine((value) => Math.abs(value) <= MAX_AMOUNT, "must be at most 1,000,000,000 in absolute value")
    .refine(isWholePenceAmount, "must have at most 2 decimal places");
  return allowNegative
    ? base.meta({ description: "GBP, at most 2 decimal places." })
    : base
        .refine((value) => value >= 0, "must not be negative")
        .meta({ description: "GBP, at most 2 decimal places, not negative.", minimum: 0 });
}

/** Whole pence of an amount accepted by `moneyAmount`. */
export function toPence(amount: number): number {
  return Math.round(amount * 100);
}

/** Whole pence as a decimal string of pounds, the edges' form ("80.00"): 8000 -> "80.00", -5 -> "-0.05". */
export function formatPence(pence: bigint | number): string {
  const value = BigInt(pence);
  const sign = value < 0n ? "-" : "";
  const magnitude = value < 0n ? -value : value;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, "0")}`;
}

const GBP_AMOUNT = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/**
 * "100", "100.5" or "100.50" pounds (an operator's or a payment provider's text) to integer
 * pence, by string arithmetic (no binary floats). Anything else (signs, exponents, separators,
 * currency symbols, a third decimal, more than ten digits of pounds) is null.
 */
export function parseGbpToPence(text: string): bigint | null {
  const match = GBP_AMOUNT.exec(text);
  if (!match) return null;
  const [, pounds = "0", fraction = ""] = match;
  return BigInt(pounds) * 100n + BigInt(fraction.padEnd(2, "0"));
}
