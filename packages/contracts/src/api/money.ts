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
    : base.refine((value) => value >= 0, "must not be negative").meta({ description: "GBP, at most 2 decimal places, not negative.", minimum: 0 });
}

/** Whole pence of an amount accepted by `moneyAmount`. */
export function toPence(amount: number): number {
  return Math.round(amount * 100);
}
