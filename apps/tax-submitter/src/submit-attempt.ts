import { createHash } from "node:crypto";
import { SealedSecret } from "@dormant/contracts";
import { z } from "zod";

/**
 * What a CT600 part's submit attempt keeps in its submission record (Redis, shared by every
 * replica) so that, should its answer be lost or its worker die, any replica can ask the
 * Transaction Engine whether it has the part (a DATA_REQUEST, which needs the sender's
 * credentials) and answer as the acknowledgement would have: the TransactionID the message
 * carried, the IRmark, the message as sent with the password masked, and the credentials still
 * sealed for this part (never in clear; the record expires with SUBMIT_DEDUPE_TTL_SECONDS).
 */
export const TaxSubmitAttempt = z.object({
  transaction_id: z.string().regex(/^[0-9A-F]{32}$/),
  irmark_base64: z.string().length(28),
  irmark_base32: z.string().length(32),
  submitted_xml: z.string().min(1),
  credentials: SealedSecret,
});
export type TaxSubmitAttempt = z.infer<typeof TaxSubmitAttempt>;

/**
 * The GovTalk TransactionID of one part of one filing: 32 upper-case hex digits derived from the
 * filing id and part number, so every attempt at the part (and anyone who knows the part) names
 * the same one.
 */
export function transactionIdFor(filingId: string, partNumber: number): string {
  return createHash("sha256").update(`${filingId}:${partNumber}`).digest("hex").slice(0, 32).toUpperCase();
}
