import { isTimestamp } from "./timestamp.ts";
import type { PdfDocumentOptions } from "./pdf-inputs.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/;

/** A required line of text: non-empty, at most `maxLength` characters, no control characters. */
export function checkText(problems: string[], field: string, value: unknown, maxLength: number): void {
  if (typeof value !== "string" || value.trim() === "") {
    problems.push(`${field} must be a non-empty string`);
    return;
  }
  if (value.length > maxLength) problems.push(`${field} is longer than ${maxLength} characters`);
  if (CONTROL_CHARACTER.test(value)) problems.push(`${field} contains a control character`);
}

/** Free text that may span lines (such as a receipt message): at most `maxLength`, no other control characters. */
export function checkMultilineText(problems: string[], field: string, value: unknown, maxLength: number): void {
  checkText(problems, field, typeof value === "string" ? value.replace(/\r?\n/g, " ") : value, maxLength);
}

export function checkDocumentOptions(problems: string[], options: PdfDocumentOptions): void {
  if (typeof options.generatedAt !== "string" || !isTimestamp(options.generatedAt, true)) {
    problems.push("generatedAt must be an ISO 8601 date-time with Z or a UTC offset");
  }
  if (options.sandbox !== undefined && typeof options.sandbox !== "boolean") problems.push("sandbox must be a boolean");
}
