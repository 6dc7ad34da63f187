import { sealSecret, submissionBinding, type SealedSecret, type SealingKey } from "@dormant/contracts";

/**
 * The credentials the gateway sealed for a request are opened in memory only
 * (`openSealedCredentials` of @dormant/contracts), checked against their schema, re-sealed here per
 * submission for the submitter, and never stored or logged.
 */

/** Seals credentials for one submission (`submissionBinding(filingId, partNumber)`). */
export function sealForSubmission(credentials: unknown, key: SealingKey, filingId: string, partNumber: number): SealedSecret {
  return sealSecret(credentials, key, submissionBinding(filingId, partNumber));
}
