import { z } from "zod";
import { CompanyNumber } from "../api/primitives.ts";
import { SubmitRegistryAccountsResponse, SubmitTaxPartResponse } from "./submissions.ts";

/**
 * The filing service asks a submitter what became of a submission it holds no acknowledgement
 * for (its submit request was interrupted: the worker died, the answer was lost), without ever
 * sending it: `tax.resolve_part` on `tax.submit`, `registry.resolve_accounts` on
 * `registry.submit`. The submitter answers from its shared submission records and, when those say
 * the attempt's fate is unknown, from the authority itself (the Transaction Engine's DATA_REQUEST
 * list of the sender's submissions; the registry's GetSubmissionStatus by submission number).
 */
const FilingId = z.string().regex(/^fil_[A-Za-z0-9_-]{1,64}$/);

/** The answer: the submission was acknowledged (poll it), certainly never reached the authority, or cannot be settled yet. */
function resolution<R extends z.ZodType>(acknowledged: R) {
  return z.discriminatedUnion("state", [
    /** The authority has it (`response` as the submit RPC answers it); its polls are scheduled. */
    z.object({ state: z.literal("acknowledged"), response: acknowledged }),
    /** Nothing was ever sent, or the authority, asked once nothing could still arrive, does not have it. */
    z.object({ state: z.literal("not_submitted"), reason: z.string() }),
    /** An attempt is still running, too early to believe a "not there", or the authority cannot be asked now. */
    z.object({ state: z.literal("in_doubt"), reason: z.string(), retry_after_seconds: z.number().int().positive() }),
  ]);
}

/** `tax.resolve_part`. */
export const ResolveTaxPartRequest = z.object({ filing_id: FilingId, part_number: z.number().int().min(1).max(2) });
export type ResolveTaxPartRequest = z.infer<typeof ResolveTaxPartRequest>;
export const ResolveTaxPartResponse = resolution(SubmitTaxPartResponse);
export type ResolveTaxPartResponse = z.infer<typeof ResolveTaxPartResponse>;

/** `registry.resolve_accounts`. */
export const ResolveRegistryAccountsRequest = z.object({
  filing_id: FilingId,
  submission_number: z.string().regex(/^[A-Z0-9]{6}$/),
  company_number: CompanyNumber,
});
export type ResolveRegistryAccountsRequest = z.infer<typeof ResolveRegistryAccountsRequest>;
export const ResolveRegistryAccountsResponse = resolution(SubmitRegistryAccountsResponse);
export type ResolveRegistryAccountsResponse = z.infer<typeof ResolveRegistryAccountsResponse>;
