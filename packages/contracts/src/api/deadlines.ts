import { z } from "zod";
import { CalendarDate, CompanyNumber, FilingStatus, fieldError, Period } from "./primitives.ts";

/** `GET /companies/{company_number}/deadlines` path parameters. */
export const CompanyPathParams = z.object({ company_number: CompanyNumber });
export type CompanyPathParams = z.infer<typeof CompanyPathParams>;

/** One of the caller's own filings for a period. */
export const DeadlineFiling = z
  .object({
    filing_id: z.string().meta({ example: "fil_2b9d6f0c4a8e4d3f9c1a7b5e3d2f1a0c" }),
    status: FilingStatus,
  })
  .meta({ id: "DeadlineFiling", description: "A filing of the calling key for this period (never another key's)." });
export type DeadlineFiling = z.infer<typeof DeadlineFiling>;

const overdue = z.boolean().meta({ description: "Today (London) is after the deadline; a listed filing may have met it." });
const filings = z
  .array(DeadlineFiling)
  .meta({ description: "The calling key's filings of this period, newest first; empty in the sandbox." });

export const AccountsPeriodDeadline = z
  .object({
    kind: z.enum(["current", "next"], { error: fieldError("must be current or next") }).meta({
      description: "`current`: the registry's next accounts (the earliest not yet filed); `next`: the period after it.",
    }),
    period: Period,
    due_on: CalendarDate.meta({ description: "The registry's deadline for these accounts." }),
    overdue,
    filings,
  })
  .meta({
    id: "AccountsPeriodDeadline",
    description: "An accounts period and its registry deadline, with the caller's accounts filings for it.",
  });
export type AccountsPeriodDeadline = z.infer<typeof AccountsPeriodDeadline>;

export const Ct600PeriodDeadline = z
  .object({
    period: Period,
    accounts_period_end: CalendarDate.meta({
      description: "The end of the accounts period this return belongs to (a CT600 filing's `period_end`).",
    }),
    filing_deadline: CalendarDate.meta({ description: "12 months after the return's period ends." }),
    overdue,
    filings,
  })
  .meta({
    id: "Ct600PeriodDeadline",
    description:
      "A CT600 return's period (an accounts period over 12 months has two) and its filing deadline, with the caller's CT600 filings covering it.",
  });
export type Ct600PeriodDeadline = z.infer<typeof Ct600PeriodDeadline>;

export const CompanyDeadlines = z
  .object({
    company_number: CompanyNumber,
    company_name: z.string().meta({ example: "LOVELACE ENGINES LIMITED" }),
    today: CalendarDate.meta({ description: "The London date the deadlines were judged on." }),
    accounts_periods: z
      .array(AccountsPeriodDeadline)
      .meta({ description: "The current accounts period, then the next; empty when the registry names none (e.g. dissolved)." }),
    ct600_periods: z.array(Ct600PeriodDeadline).meta({ description: "The CT600 returns of those accounts periods, in date order." }),
    sandbox: z.literal(true).optional().meta({ description: "Present on sandbox (test key) answers." }),
  })
  .meta({
    id: "CompanyDeadlines",
    description: "A company's filing deadlines from the registry's public data, with the calling key's filings for them.",
  });
export type CompanyDeadlines = z.infer<typeof CompanyDeadlines>;
