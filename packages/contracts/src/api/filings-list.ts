import { z } from "zod";
import { FilingSummary } from "./filing.ts";
import { ClientReference, CompanyNumber, FilingStatus, FilingType } from "./primitives.ts";

export const PAGE_SIZE = { default: 20, max: 100 } as const;

/** A non-negative integer written in decimal digits, as query strings carry numbers. */
function queryInteger({ min, max }: { min: number; max?: number }) {
  return z
    .string({ error: "must be given once, as a whole number" })
    .regex(/^\d{1,9}$/, "must be a whole number")
    .transform(Number)
    .pipe(
      max === undefined
        ? z.number().min(min, `must be at least ${min}`)
        : z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
    );
}

/** `limit` and `offset` of a paginated list's query (`GET /filings`, `GET /webhook_endpoints`, ...). */
export const PAGE_QUERY_FIELDS = {
  limit: queryInteger({ min: 1, max: PAGE_SIZE.max })
    .optional()
    .default(PAGE_SIZE.default)
    .meta({
      description: `Page size, 1 to ${PAGE_SIZE.max}.`,
      type: "integer",
      minimum: 1,
      maximum: PAGE_SIZE.max,
      default: PAGE_SIZE.default,
    }),
  offset: queryInteger({ min: 0 })
    .optional()
    .default(0)
    .meta({ description: "Number of items to skip.", type: "integer", minimum: 0, default: 0 }),
};

/**
 * `GET /filings` query. Unknown parameters are refused so that a misspelt filter never widens
 * the answer silently; a parameter given twice is refused too.
 */
export const ListFilingsQuery = z
  .strictObject({
    status: FilingStatus.optional(),
    type: FilingType.optional(),
    company_number: CompanyNumber.optional(),
    client_reference: ClientReference.optional().meta({
      description: "Only the filings submitted with this `client_reference` (exact match).",
    }),
    ...PAGE_QUERY_FIELDS,
  })
  .meta({ id: "ListFilingsQuery" });
export type ListFilingsQuery = z.output<typeof ListFilingsQuery>;

export const Pagination = z
  .object({
    total: z.number().int().min(0),
    limit: z.number().int().min(1),
    offset: z.number().int().min(0),
    has_more: z.boolean(),
  })
  .meta({ id: "Pagination" });
export type Pagination = z.infer<typeof Pagination>;

export const FilingsList = z
  .object({ filings: z.array(FilingSummary), pagination: Pagination })
  .meta({ id: "FilingsList", description: "The caller's filings, newest first by creation date." });
export type FilingsList = z.infer<typeof FilingsList>;
