import { AppError, openSealedSecret, sealSecret, submissionBinding, type SealedSecret, type SealingKey } from "@dormant/contracts";
import type { z } from "zod";

/**
 * Opens the credentials the gateway sealed for this request, in memory only: they are checked
 * against their schema, re-sealed per submission for the submitter, and never stored or logged.
 * A value that does not open (another key, another binding, altered) is our fault, not the
 * caller's: INTERNAL_ERROR, with nothing of the value in the message.
 */
export function openCredentials<S extends z.ZodType>(sealed: SealedSecret, keys: readonly SealingKey[], boundTo: string, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = openSealedSecret(sealed, keys, boundTo);
  } catch {
    throw new AppError("INTERNAL_ERROR", "The submitted credentials could not be read", { retryable: false });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("INTERNAL_ERROR", "The submitted credentials have an unexpected shape", { retryable: false });
  return parsed.data;
}

/** Seals credentials for one submission (`submissionBinding(filingId, partNumber)`). */
export function sealForSubmission(credentials: unknown, key: SealingKey, filingId: string, partNumber: number): SealedSecret {
  return sealSecret(credentials, key, submissionBinding(filingId, partNumber));
}
