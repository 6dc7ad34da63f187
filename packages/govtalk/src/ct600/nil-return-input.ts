import { z } from "zod";
import { isValidIsoDate, periodEndAfterMonths } from "@dormant/company-data";
import { parseInput } from "../envelope/parse-input.ts";
import { CT600_EARLIEST_PERIOD_START, CT600_NAME_MAX_LENGTH, CT600_SCHEMA_VERSION } from "./constants.ts";
import { toCtText } from "./ct-text.ts";

const calendarDate = z.string().refine(isValidIsoDate, "must be a calendar date YYYY-MM-DD");

/** A name field: transliterated to the CT600 character set, cut to 56, at least 2 characters. */
const ctName = z
  .string()
  .transform((value) => toCtText(value, CT600_NAME_MAX_LENGTH))
  .refine((value) => value.length >= 2, "must keep at least 2 characters allowed by the CT600 schema");

/** `CTfilenameType` of the CT schema: no `£ $ # ~ | € / \\ : * " < >`. */
const ctFilename = z.string().regex(/^[^£$#~|€/\\:*"<>]{1,100}$/, 'must be 1-100 characters without £ $ # ~ | € / \\ : * " < >');

/**
 * The company's accounts attached to the return in iXBRL (`AttachedFiles/XBRLsubmission/Accounts`):
 * the same dormant accounts document the registry receives. `period` says whether they are the
 * accounts of this return's period (box 80, `ThisPeriodAccounts`) or of a different period (box
 * 85, `DifferentPeriod`: each part of a period of account longer than 12 months, whose accounts
 * cover the whole period of account).
 */
export const ct600AttachedAccountsSchema = z.object({
  /** The iXBRL (XHTML) text; attached base64-encoded (UTF-8) as `EncodedInlineXBRLDocument`. */
  ixbrl: z.string().min(1),
  filename: ctFilename.default("accounts.xhtml"),
  period: z.enum(["this-period", "different-period"]).default("this-period"),
});

/**
 * What a dormant company's nil CT600 needs. Names are transliterated (see ct-text.ts); dates
 * are calendar strings; the period is at most 12 months (rule 9101: longer periods are split
 * by the caller into two returns).
 */
export const ct600NilReturnInputSchema = z
  .object({
    /** 10-digit Unique Taxpayer Reference; also the return's `Reference` (rule 9100). */
    utr: z.string().regex(/^\d{10}$/, "must be 10 digits"),
    companyName: ctName,
    /** Registry number, 2-8 upper-case letters or digits (e.g. 00000001, SC000001). */
    companyNumber: z
      .string()
      .transform((value) => value.trim().toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{2,8}$/, "must be 2-8 letters or digits")),
    periodStart: calendarDate,
    periodEnd: calendarDate,
    declarantName: ctName,
    /** The declarant's capacity, e.g. "Director". */
    declarantStatus: ctName,
    /** The 4-digit vendor ID the tax authority gave the software developer. */
    vendorId: z.string().regex(/^\d{4}$/, "must be 4 digits"),
    productName: z.string().trim().min(1),
    productVersion: z.string().trim().min(1),
    /** true for the authority's test services (`GatewayTest` 1). */
    gatewayTest: z.boolean(),
    /** Government Gateway user ID. */
    senderId: z.string().trim().min(1),
    /** Government Gateway password; goes only into `Authentication/Value`. */
    password: z.string().min(1),
    /** `CompanyType` code; 0 is a UK resident company. */
    companyType: z.number().int().min(0).max(11).default(0),
    schemaVersion: z
      .string()
      .regex(/^\d{4}-v\d{1,3}\.\d{1,3}(\.\d{1,3})?$/)
      .default(CT600_SCHEMA_VERSION),
    /**
     * The accounts in iXBRL, attached to the return (see README, "Accounts: attached or a
     * reason"). Absent: the return gives the reason `Company dormant` for having no accounts.
     */
    accounts: ct600AttachedAccountsSchema.optional(),
  })
  .superRefine((input, context) => {
    if (!isValidIsoDate(input.periodStart) || !isValidIsoDate(input.periodEnd)) return;
    if (input.periodStart < CT600_EARLIEST_PERIOD_START) {
      context.addIssue({ code: "custom", path: ["periodStart"], message: `must be on or after ${CT600_EARLIEST_PERIOD_START}` });
    }
    if (input.periodEnd < input.periodStart) {
      context.addIssue({ code: "custom", path: ["periodEnd"], message: "must not be before periodStart" });
    } else if (input.periodEnd > periodEndAfterMonths(input.periodStart, 12)) {
      context.addIssue({ code: "custom", path: ["periodEnd"], message: "the period must not exceed 12 months (rule 9101): split it" });
    }
  });

/** Input of the nil return builders, as the caller writes it. */
export type Ct600NilReturnInput = z.input<typeof ct600NilReturnInputSchema>;
/** Input after validation and normalisation (names transliterated, defaults applied). */
export type Ct600NilReturn = z.output<typeof ct600NilReturnInputSchema>;

/** Validates and normalises builder input; throws GovTalkInputError (never echoing the password). */
export function parseCt600NilReturnInput(input: Ct600NilReturnInput): Ct600NilReturn {
  return parseInput(ct600NilReturnInputSchema, input, "CT600 nil return input");
}
