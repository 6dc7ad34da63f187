import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../auth/password.ts";

export const PasswordField = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`);

export const EmailField = z
  .string()
  .trim()
  .max(254, "Email must be at most 254 characters.")
  .pipe(z.email("Enter an email address like name@example.com."));

/** The first message per field of a failed parse. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}

/** "15 minutes" / "1 minute" / "40 seconds". */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** "Try again in 15 minutes (after 04:15 UTC)." for a refused attempt's wait. */
export function tryAgainIn(retryAfterSeconds: number, now = Date.now()): string {
  const at = new Date(now + retryAfterSeconds * 1000).toISOString().slice(11, 16);
  return `Try again in ${describeWait(retryAfterSeconds)} (after ${at} UTC).`;
}
