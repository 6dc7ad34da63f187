import { isValidIsoDate } from "@dormant/company-data";
import { checkDocumentOptions, checkMultilineText, checkText } from "./input-checks.ts";
import { isIrmark } from "./irmark.ts";
import { PdfInputError } from "./pdf-input-error.ts";
import { isTimestamp } from "./timestamp.ts";
import type { Ct600PdfInput } from "./pdf-inputs.ts";

const MAX_NAME_LENGTH = 160;
const MAX_RECEIPT_MESSAGE_LENGTH = 2000;
const COMPANY_NUMBER = /^[A-Z0-9]{2,8}$/;
const UTR = /^\d{10}$/;

function checkDate(problems: string[], field: string, value: unknown): boolean {
  if (typeof value === "string" && isValidIsoDate(value)) return true;
  problems.push(`${field} must be a YYYY-MM-DD calendar date`);
  return false;
}

/** Every problem with the input; empty when it can be rendered. */
export function findCt600PdfInputProblems(input: Ct600PdfInput): string[] {
  const problems: string[] = [];
  checkDocumentOptions(problems, input);
  checkText(problems, "companyName", input.companyName, MAX_NAME_LENGTH);
  if (typeof input.companyNumber !== "string" || !COMPANY_NUMBER.test(input.companyNumber)) {
    problems.push("companyNumber must be 2-8 characters A-Z or 0-9");
  }
  if (typeof input.utr !== "string" || !UTR.test(input.utr)) problems.push("utr must be 10 digits");
  const datesValid = [checkDate(problems, "periodStart", input.periodStart), checkDate(problems, "periodEnd", input.periodEnd)].every(
    Boolean,
  );
  if (datesValid && input.periodEnd < input.periodStart) problems.push("periodEnd must not be before periodStart");
  if (input.returnType !== undefined && input.returnType !== "new" && input.returnType !== "amended") {
    problems.push("returnType must be new or amended");
  }
  checkText(problems, "declarantName", input.declarantName, MAX_NAME_LENGTH);
  checkText(problems, "declarantStatus", input.declarantStatus, MAX_NAME_LENGTH);
  if (typeof input.irmark !== "string" || !isIrmark(input.irmark)) problems.push("irmark must be the base64 SHA-1 digest (28 characters)");

  const part = input.part;
  if (part !== undefined) {
    const counts = [part.number, part.of];
    if (!counts.every((count) => Number.isSafeInteger(count)) || part.of < 2 || part.number < 1 || part.number > part.of) {
      problems.push("part must be { number, of } with 1 <= number <= of and of >= 2");
    }
  }

  const receipt = input.receipt;
  if (receipt !== undefined) {
    if (receipt.correlationId !== undefined) checkText(problems, "receipt.correlationId", receipt.correlationId, 64);
    if (receipt.acceptedAt !== undefined && (typeof receipt.acceptedAt !== "string" || !isTimestamp(receipt.acceptedAt, false))) {
      problems.push("receipt.acceptedAt must be an ISO 8601 date-time");
    }
    if (receipt.message !== undefined) checkMultilineText(problems, "receipt.message", receipt.message, MAX_RECEIPT_MESSAGE_LENGTH);
  }
  return problems;
}

/** @throws PdfInputError listing every problem found. */
export function assertValidCt600PdfInput(input: Ct600PdfInput): void {
  const problems = findCt600PdfInputProblems(input);
  if (problems.length > 0) throw new PdfInputError(problems);
}
