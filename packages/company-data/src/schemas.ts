/**
 * The registry public data API's JSON, as zod schemas. They are used in two places: our client
 * validates every answer with them, and authority-sim serves the same API from them.
 *
 * Policy: fields we rely on are required and checked strictly (dates are real `YYYY-MM-DD`
 * dates, company numbers 8 characters); fields we do not use are optional or absent, and
 * unknown fields are stripped (zod's default), so additions on the registry's side never break
 * us. Value sets the registry may extend (company status, company type, officer role,
 * jurisdiction) are plain strings here; the derivation rules decide what they support.
 */
import { z } from "zod";
import { isValidIsoDate } from "./calendar-date.ts";
import { isMoneyAmount } from "./money.ts";

/** A real calendar date written `YYYY-MM-DD`. */
export const isoDateSchema = z.string().refine(isValidIsoDate, { error: "must be a real date written YYYY-MM-DD" });

/** Registry company numbers: 8 upper-case letters or digits (00000001, SC000001, NI000001). */
export const companyNumberSchema = z.string().regex(/^[A-Z0-9]{8}$/, { error: "must be 8 upper-case letters or digits" });

/** An amount in pounds with at most two decimal places (see money.ts). */
export const moneyAmountSchema = z.number().refine(isMoneyAmount, { error: "must be an amount with at most two decimal places" });

/** A count in the registry's paging fields of a list (we read the first page only). */
const pageCountSchema = z.number().int().nonnegative().optional();

export const registeredOfficeAddressSchema = z.object({
  care_of: z.string().optional(),
  po_box: z.string().optional(),
  premises: z.string().optional(),
  address_line_1: z.string().optional(),
  address_line_2: z.string().optional(),
  locality: z.string().optional(),
  region: z.string().optional(),
  postal_code: z.string().optional(),
  country: z.string().optional(),
});

// The registry's published spec says integers, its live answers carry strings ("31", "03");
// both are accepted.
const dayOfMonthSchema = z.union([z.number().int().min(1).max(31), z.string().regex(/^(0?[1-9]|[12]\d|3[01])$/)]);
const monthOfYearSchema = z.union([z.number().int().min(1).max(12), z.string().regex(/^(0?[1-9]|1[0-2])$/)]);

export const accountingReferenceDateSchema = z.object({
  day: dayOfMonthSchema,
  month: monthOfYearSchema,
});

export const nextAccountsSchema = z.object({
  period_start_on: isoDateSchema.optional(),
  period_end_on: isoDateSchema.optional(),
  due_on: isoDateSchema.optional(),
  overdue: z.boolean().optional(),
});

/**
 * `made_up_to` is the field the registry documents as deprecated in favour of
 * `period_end_on`; both still appear and carry the same date. A company that has never filed
 * accounts may answer `{ "type": "null" }` with no dates.
 */
export const lastAccountsSchema = z.object({
  made_up_to: isoDateSchema.optional(),
  period_start_on: isoDateSchema.optional(),
  period_end_on: isoDateSchema.optional(),
  type: z.string().optional(),
});

export const companyAccountsSchema = z.object({
  accounting_reference_date: accountingReferenceDateSchema.optional(),
  next_accounts: nextAccountsSchema.optional(),
  last_accounts: lastAccountsSchema.optional(),
});

/** `GET /company/{number}` */
export const companyProfileSchema = z.object({
  company_name: z.string().min(1),
  company_number: companyNumberSchema,
  /** active, dissolved, liquidation, ... */
  company_status: z.string().min(1),
  /** The registry's company type code: ltd, plc, private-limited-guarant-nsc, llp, ... */
  type: z.string().min(1),
  date_of_creation: isoDateSchema,
  /** england-wales, wales, scotland, northern-ireland, ... (absent for some overseas bodies) */
  jurisdiction: z.string().min(1).optional(),
  registered_office_address: registeredOfficeAddressSchema.optional(),
  accounts: companyAccountsSchema.optional(),
});

/** One item of `GET /company/{number}/officers`. */
export const officerSchema = z.object({
  /** "SURNAME, Forenames" for people; the corporate name for corporate officers. */
  name: z.string().min(1),
  /** director, secretary, corporate-director, nominee-director, llp-member, ... */
  officer_role: z.string().min(1),
  appointed_on: isoDateSchema.optional(),
  /** Only for appointments made before 1992, whose exact date the registry does not hold. */
  appointed_before: isoDateSchema.optional(),
  resigned_on: isoDateSchema.optional(),
});

/** `GET /company/{number}/officers` (first page). */
export const officerListSchema = z.object({
  items: z.array(officerSchema),
  total_results: pageCountSchema,
  items_per_page: pageCountSchema,
  start_index: pageCountSchema,
});

/**
 * Balance-sheet figures of an earlier filed set of accounts, in pounds.
 *
 * NOT PART OF THE REAL REGISTRY API. The registry's filing history only links to the filed
 * document; real figures would have to be read from that earlier iXBRL document. Our simulator
 * adds this field so that prior-year comparatives can be exercised end to end; against the
 * real registry it is simply absent and prior-year figures are unknown.
 */
export const accountsFiguresSchema = z.object({
  share_capital: moneyAmountSchema,
  cash: moneyAmountSchema,
  creditors: moneyAmountSchema,
  profit_loss_account: moneyAmountSchema,
});

/** One item of `GET /company/{number}/filing-history`. */
export const filingHistoryItemSchema = z.object({
  transaction_id: z.string().min(1).optional(),
  /** accounts, officers, address, ... */
  category: z.string().min(1),
  /** The form type: AA (annual accounts), AA01 (change of accounting reference date), ... */
  type: z.string().min(1),
  /** The date the registry processed the filing. */
  date: isoDateSchema,
  /** A key into the registry's description table, e.g. accounts-with-accounts-type-dormant. */
  description: z.string(),
  description_values: z
    .object({
      /** The date annual accounts (AA) are made up to. */
      made_up_date: isoDateSchema.optional(),
    })
    .optional(),
  /** Simulator extension, see `accountsFiguresSchema`. */
  accounts_figures: accountsFiguresSchema.optional(),
});

/** `GET /company/{number}/filing-history?category=accounts` (first page, newest first). */
export const filingHistorySchema = z.object({
  items: z.array(filingHistoryItemSchema),
  total_count: pageCountSchema,
  items_per_page: pageCountSchema,
  start_index: pageCountSchema,
  filing_history_status: z.string().optional(),
});

export type RegisteredOfficeAddress = z.infer<typeof registeredOfficeAddressSchema>;
export type AccountingReferenceDate = z.infer<typeof accountingReferenceDateSchema>;
export type NextAccounts = z.infer<typeof nextAccountsSchema>;
export type LastAccounts = z.infer<typeof lastAccountsSchema>;
export type CompanyAccounts = z.infer<typeof companyAccountsSchema>;
export type CompanyProfile = z.infer<typeof companyProfileSchema>;
export type Officer = z.infer<typeof officerSchema>;
export type OfficerList = z.infer<typeof officerListSchema>;
export type AccountsFigures = z.infer<typeof accountsFiguresSchema>;
export type FilingHistoryItem = z.infer<typeof filingHistoryItemSchema>;
export type FilingHistory = z.infer<typeof filingHistorySchema>;
