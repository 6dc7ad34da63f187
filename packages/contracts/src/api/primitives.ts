import { z } from "zod";

/**
 * The building blocks of the public API: identifiers, dates and the closed value sets of the
 * spec (sections 2 and 3). Dates are calendar dates (`YYYY-MM-DD`, a real day: 2023-02-29 and
 * 2024-04-31 are refused), never `Date` objects.
 */

/**
 * An error message for a failed field: "is required" when it is missing, else what it must be.
 * (Messages never quote the received value: it may be a secret.)
 */
export function fieldError(mustBe: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : mustBe);
}

export const CalendarDate = z.iso.date({ error: fieldError("must be a real calendar date in the form YYYY-MM-DD") }).meta({
  id: "CalendarDate",
  description: "A calendar date, `YYYY-MM-DD`; the day must exist (leap years are honoured).",
  example: "2024-03-31",
});
export type CalendarDate = z.infer<typeof CalendarDate>;

export const DateTime = z.iso.datetime({ offset: true, error: fieldError("must be an ISO 8601 date-time") }).meta({
  description: "ISO 8601 date-time.",
  example: "2024-05-01T10:15:30.000Z",
});
export type DateTime = z.infer<typeof DateTime>;

export const CompanyNumber = z
  .string({ error: fieldError("must be a string") })
  .regex(/^[A-Z0-9]{8}$/, "must be exactly 8 characters: upper-case letters A-Z and digits")
  .meta({ id: "CompanyNumber", description: "Registry company number: 8 upper-case letters or digits.", example: "00000001" });
export type CompanyNumber = z.infer<typeof CompanyNumber>;

export const Utr = z
  .string({ error: fieldError("must be a string") })
  .regex(/^\d{10}$/, "must be exactly 10 digits")
  .meta({ id: "Utr", description: "Corporation-tax unique taxpayer reference: exactly 10 digits.", example: "1234567890" });
export type Utr = z.infer<typeof Utr>;

export const FilingType = z.enum(["ct600", "accounts"], { error: fieldError("must be one of: ct600, accounts") }).meta({
  id: "FilingType",
  description: "`ct600`: dormant corporation-tax nil return to the tax authority. `accounts`: dormant accounts to the company registry.",
});
export type FilingType = z.infer<typeof FilingType>;

export const FilingStatus = z
  .enum(["pending", "submitted", "accepted", "rejected", "error"], {
    error: fieldError("must be one of: pending, submitted, accepted, rejected, error"),
  })
  .meta({
    id: "FilingStatus",
    description:
      "`pending` created, not yet submitted; `submitted` awaiting the authority; `accepted`; `rejected` by the authority (see `error`); `error` system error such as invalid credentials or a time-out (see `error`).",
  });
export type FilingStatus = z.infer<typeof FilingStatus>;

/** A filing part's tax status has one value more than a filing: `polling`. */
export const FilingPartStatus = z.enum(["pending", "submitted", "polling", "accepted", "rejected", "error"]).meta({
  id: "FilingPartStatus",
  description: "Status of one CT600 submission of a split filing: the filing statuses plus `polling`.",
});
export type FilingPartStatus = z.infer<typeof FilingPartStatus>;

export const Period = z
  .object({ start: CalendarDate, end: CalendarDate })
  .meta({ id: "Period", description: "An accounting period, both ends inclusive." });
export type Period = z.infer<typeof Period>;

/**
 * Maximum lengths of the name-type fields (the spec leaves them open). CT600 names go into the
 * tax authority's schema, which allows 2 to 56 characters without `£ $ # ~ €`; registry names
 * follow the registry's 160-character company-name limit.
 */
export const NAME_LIMITS = {
  ct600CompanyName: 56,
  ct600DeclarantName: 56,
  accountsCompanyName: 160,
  accountsDirectorName: 160,
  accountsDirectorPosition: 60,
  entityType: 50,
  governmentGatewayId: 64,
  governmentGatewayPassword: 128,
} as const;

/** A name that the tax authority's CT600 schema accepts: 2..max characters, no `£ $ # ~ €`. */
export function ct600Name(max: number) {
  return z
    .string({ error: fieldError("must be a string") })
    .min(2, `must be at least 2 characters`)
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^£$#~€]*$/, "must not contain any of the characters £ $ # ~ €")
    .refine((value) => value.length < 2 || value.trim().length >= 2, "must not be blank");
}

/** A free-text name of 1..max characters that is not only white space. */
export function boundedName(max: number) {
  return z
    .string({ error: fieldError("must be a string") })
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((value) => value.length === 0 || value.trim().length > 0, "must not be blank");
}

/** The caller's own reference for a filing (issue 13 item 4): optional on both submits, stored, shown on reads, a list filter. */
export const CLIENT_REFERENCE_MAX = 100;
export const ClientReference = z
  .string({ error: fieldError("must be a string") })
  .min(1, "must not be empty")
  .max(CLIENT_REFERENCE_MAX, `must be at most ${CLIENT_REFERENCE_MAX} characters`)
  .meta({
    description: `Your own reference for the filing, 1 to ${CLIENT_REFERENCE_MAX} characters: stored as given, shown on every read of the filing, a \`GET /filings\` filter (exact match).`,
    example: "ACME-2026-0042",
  });
