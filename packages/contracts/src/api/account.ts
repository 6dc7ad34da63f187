import { z } from "zod";

const Gbp = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ description: 'An amount in GBP as a decimal string, e.g. "80.00".' });

/**
 * `GET /account` (an extension of the spec): the calling key's account, its money and the key's
 * rate limits. Available = balance - held (holds are the 20.00 GBP fees of live filings awaiting
 * the authority's answer).
 */
export const AccountResponse = z
  .object({
    account_id: z.string(),
    mode: z.enum(["live", "test"]).meta({ description: "The calling key's mode; test keys see the account but never hold or pay." }),
    balance: Gbp,
    held: Gbp,
    available: Gbp,
    currency: z.literal("GBP"),
    rate_limits: z.object({
      per_minute: z.number().int().positive(),
      per_day: z.number().int().positive(),
    }),
  })
  .meta({ id: "Account" });
export type AccountResponse = z.infer<typeof AccountResponse>;
