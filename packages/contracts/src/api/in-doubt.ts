import { AppError, type ErrorDetail } from "../errors.ts";

/** Which authority a submission in doubt went to. */
export type InDoubtAuthority = "tax" | "registry";

/** The `details` entry of a submit in doubt: names the filing, which exists and is pending. */
export interface InDoubtDetail extends ErrorDetail {
  field: "filing_id";
  filing_id: string;
  filing_status: "pending";
  in_doubt: true;
}

const WHO: Record<InDoubtAuthority, { code: "TAX_UNAVAILABLE" | "REGISTRY_UNAVAILABLE"; name: string }> = {
  tax: { code: "TAX_UNAVAILABLE", name: "tax authority" },
  registry: { code: "REGISTRY_UNAVAILABLE", name: "company registry" },
};

export function inDoubtDetail(filingId: string): InDoubtDetail {
  return {
    field: "filing_id",
    message: "the filing of this submit; it will be settled with the authority",
    filing_id: filingId,
    filing_status: "pending",
    in_doubt: true,
  };
}

/**
 * The answer to a submit in doubt (README "When an answer is lost"): the submission may have
 * reached the authority and its answer was lost (or is not known yet). 502 TAX_UNAVAILABLE /
 * REGISTRY_UNAVAILABLE as before, with Retry-After, now naming the filing in `details`: the
 * filing exists, will be settled with the authority, and nothing is sent twice. A retry with the
 * same Idempotency-Key and body answers this again while in doubt, then 202 with the filing.
 */
export function inDoubtError(
  authority: InDoubtAuthority,
  filingId: string,
  options: { retryAfterSeconds: number; cause?: unknown },
): AppError {
  const { code, name } = WHO[authority];
  return new AppError(
    code,
    `The ${name}'s answer to filing ${filingId} was lost; the filing will be settled with the ${name} and nothing will be sent twice. Follow ${filingId}, or retry with the same Idempotency-Key and body after Retry-After.`,
    { details: [inDoubtDetail(filingId)], retryAfterSeconds: options.retryAfterSeconds, cause: options.cause },
  );
}

/** The filing a submit in doubt names in its `details`, if the error is one. */
export function inDoubtFilingId(details: readonly ErrorDetail[] | undefined): string | undefined {
  const detail = details?.find((entry) => entry.field === "filing_id" && entry["in_doubt"] === true);
  return typeof detail?.filing_id === "string" ? detail.filing_id : undefined;
}
