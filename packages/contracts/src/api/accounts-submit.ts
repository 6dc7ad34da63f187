import { z } from "zod";
import { EVEN_WHEN_OTHER_FIELDS_FAIL, isCalendarDate, pick } from "./cross-field.ts";
import { isWholePenceAmount, moneyAmount, toPence } from "./money.ts";
import {
  CalendarDate,
  ClientReference,
  CompanyNumber,
  DateTime,
  FilingStatus,
  NAME_LIMITS,
  boundedName,
  fieldError,
} from "./primitives.ts";

const OBJECT = { error: fieldError("must be an object") };

/**
 * A dormant balance sheet. It balances when net assets equal capital and reserves:
 * `cash - creditors = share_capital + profit_loss_account` (to the penny). `creditors` and
 * `profit_loss_account` count as 0 when omitted.
 */
export const BalanceSheet = z
  .strictObject(
    {
      share_capital: moneyAmount({ allowNegative: false }),
      cash: moneyAmount({ allowNegative: false }),
      creditors: moneyAmount({ allowNegative: false }).optional(),
      profit_loss_account: moneyAmount({ allowNegative: true }).optional(),
    },
    OBJECT,
  )
  .superRefine((sheet, ctx) => {
    const [shareCapital, cash, creditors = 0, profitLoss = 0] = ["share_capital", "cash", "creditors", "profit_loss_account"].map((f) =>
      pick(sheet, f),
    );
    if (![shareCapital, cash, creditors, profitLoss].every(isWholePenceAmount)) return;
    const netAssets = toPence(cash as number) - toPence(creditors as number);
    const capitalAndReserves = toPence(shareCapital as number) + toPence(profitLoss as number);
    if (netAssets !== capitalAndReserves) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `does not balance: cash - creditors (${(netAssets / 100).toFixed(2)}) must equal share_capital + profit_loss_account (${(capitalAndReserves / 100).toFixed(2)})`,
      });
    }
  }, EVEN_WHEN_OTHER_FIELDS_FAIL)
  .meta({
    id: "BalanceSheet",
    description:
      "Amounts in GBP with at most 2 decimal places. Must balance: `cash - creditors = share_capital + profit_loss_account`; `creditors` and `profit_loss_account` count as 0 when omitted.",
  });
export type BalanceSheet = z.infer<typeof BalanceSheet>;

export const AccountsCredentials = z
  .strictObject(
    {
      company_auth_code: z
        .string({ error: fieldError("must be a string") })
        .regex(/^[A-Z0-9]{6}$/, "must be exactly 6 characters: upper-case letters A-Z and digits")
        .meta({ format: "password", description: "Company authentication code: used once, never stored or logged." }),
    },
    OBJECT,
  )
  .meta({ id: "AccountsCredentials" });
export type AccountsCredentials = z.infer<typeof AccountsCredentials>;

/** The accounts body's fields other than the credentials. */
const accountsFields = {
  company_number: CompanyNumber,
  period_end: CalendarDate.meta({ description: "Last day of the accounting period (the balance sheet date)." }),
  company: z
    .strictObject(
      {
        name: boundedName(NAME_LIMITS.accountsCompanyName).optional(),
        entity_type: z
          .string({ error: fieldError("must be a string") })
          .max(NAME_LIMITS.entityType, `must be at most ${NAME_LIMITS.entityType} characters`)
          .regex(/^[a-z0-9][a-z0-9-]*$/, "must be a registry entity type code: lower-case letters, digits and hyphens (e.g. ltd)")
          .optional(),
      },
      OBJECT,
    )
    .optional()
    .meta({ description: "Overrides of derived company data." }),
  period: z
    .strictObject(
      {
        start: CalendarDate.optional(),
        is_first_year: z
          .boolean({ error: fieldError("must be a boolean") })
          .optional()
          .meta({ description: "Whether this is the first accounting period." }),
      },
      OBJECT,
    )
    .optional(),
  approval: z
    .strictObject(
      {
        date: CalendarDate.optional().meta({ description: "Date the directors approved the accounts." }),
        director_name: boundedName(NAME_LIMITS.accountsDirectorName).optional(),
        director_position: boundedName(NAME_LIMITS.accountsDirectorPosition).optional(),
      },
      OBJECT,
    )
    .optional(),
  balance_sheet: BalanceSheet.optional(),
  client_reference: ClientReference.optional(),
};

function accountsRules(body: unknown, ctx: z.RefinementCtx): void {
  const end = pick(body, "period_end");
  if (!isCalendarDate(end)) return;
  const start = pick(body, "period", "start");
  if (isCalendarDate(start) && start >= end) {
    ctx.addIssue({ code: "custom", path: ["period", "start"], message: "must be before period_end" });
  }
  const approved = pick(body, "approval", "date");
  if (isCalendarDate(approved) && approved < end) {
    ctx.addIssue({ code: "custom", path: ["approval", "date"], message: "must not be before period_end" });
  }
}

/**
 * `POST /filings/accounts` body. Unknown fields are refused. `period.start` must be before
 * `period_end`, and `approval.date` must not be before `period_end`.
 */
export const AccountsSubmitRequest = z
  .strictObject({ ...accountsFields, credentials: AccountsCredentials }, OBJECT)
  .superRefine(accountsRules, EVEN_WHEN_OTHER_FIELDS_FAIL)
  .meta({ id: "AccountsSubmitRequest" });
export type AccountsSubmitRequest = z.infer<typeof AccountsSubmitRequest>;

/** The accounts body without its credentials, under the same rules (the bus carries it so). */
export const AccountsFilingInput = z.strictObject(accountsFields, OBJECT).superRefine(accountsRules, EVEN_WHEN_OTHER_FIELDS_FAIL);
export type AccountsFilingInput = z.infer<typeof AccountsFilingInput>;

/**
 * The fields of an accounts request that override what is derived from the registry's data. Each
 * balance sheet amount is optional here: the derivation completes the ones not given.
 */
export type AccountsOverrides = Pick<AccountsFilingInput, "company" | "period" | "approval"> & { balance_sheet?: Partial<BalanceSheet> };

export const AccountsDerivedValues = z
  .object({
    company_name: z.string(),
    entity_type: z.string(),
    period_start: CalendarDate,
    is_first_year: z.boolean(),
    director_name: z.string(),
    approval_date: CalendarDate,
    share_capital: z.number(),
    cash: z.number(),
  })
  .meta({ id: "AccountsDerivedValues", description: "The values used for the accounts, derived from the registry unless overridden." });
export type AccountsDerivedValues = z.infer<typeof AccountsDerivedValues>;

export const AccountsSubmitResponse = z
  .object({
    filing_id: z.string(),
    status: FilingStatus,
    registry_submission_number: z.string(),
    submitted_at: DateTime,
    derived_values: AccountsDerivedValues,
    client_reference: ClientReference.optional().meta({ description: "The request's `client_reference`, when it had one." }),
  })
  .meta({ id: "AccountsSubmitResponse", description: "A live accounts submit: status `submitted`." });
export type AccountsSubmitResponse = z.infer<typeof AccountsSubmitResponse>;
