import { randomUUID } from "node:crypto";
import type { RegistryCompanyType } from "./constants.ts";

/** A submission number: exactly 6 upper-case letters or digits. */
export const SUBMISSION_NUMBER_PATTERN = /^[0-9A-Z]{6}$/;
/** A GovTalk TransactionID: 1-32 upper-case hexadecimal digits. */
export const TRANSACTION_ID_PATTERN = /^[0-9A-F]{1,32}$/;
/** How many distinct submission numbers formatSubmissionNumber can give (36^6). */
export const SUBMISSION_NUMBER_CAPACITY = 36 ** 6;

/**
 * The submission number for the `sequence`-th submission of a presenter: base 36, upper case,
 * zero-padded to 6 (0 -> 000000, 35 -> 00000Z, 36 -> 000010). The registry requires it to be
 * unique per presenter forever, so `sequence` must come from a durable counter that never
 * hands out a value twice (e.g. a PostgreSQL sequence per presenter), never from a clock.
 */
export function formatSubmissionNumber(sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 0 || sequence >= SUBMISSION_NUMBER_CAPACITY) {
    throw new RangeError(`submission sequence must be an integer in [0, ${SUBMISSION_NUMBER_CAPACITY - 1}]`);
  }
  return sequence.toString(36).toUpperCase().padStart(6, "0");
}

/** True for a well-formed submission number. */
export function isSubmissionNumber(value: string): boolean {
  return SUBMISSION_NUMBER_PATTERN.test(value);
}

/** A fresh random TransactionID (32 upper-case hexadecimal digits). */
export function newTransactionId(): string {
  return randomUUID().replaceAll("-", "").toUpperCase();
}

/**
 * The registry company type of a company's jurisdiction, from its number: SC for Scotland,
 * NI for Northern Ireland, R for Northern Ireland companies registered before 1922 (R + digits),
 * otherwise EW (England and Wales). The OC, SO and NC types are only for LLPs in liquidation.
 */
export function companyTypeForNumber(companyNumber: string): RegistryCompanyType {
  const number = companyNumber.trim().toUpperCase();
  if (number.startsWith("SC")) return "SC";
  if (number.startsWith("NI")) return "NI";
  if (/^R\d/.test(number)) return "R";
  return "EW";
}
