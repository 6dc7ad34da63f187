import { parseArgs } from "node:util";
import { z } from "zod";
import { AccountId } from "../ledger/accounts.ts";
import { MAX_CREDIT_PENCE, parseGbpToPence } from "../money/pence.ts";
import { UsageError } from "@dormant/service-kit";

export const BILLING_ADMIN_COMMANDS = ["open-account", "balance", "top-up", "ledger", "reconcile"] as const;
export type BillingAdminCommandName = (typeof BILLING_ADMIN_COMMANDS)[number];

export type BillingAdminCommand =
  | { command: "open-account"; accountId: string; openingBalancePence: bigint; name?: string }
  | { command: "balance"; accountId: string }
  | { command: "top-up"; accountId: string; amountPence: bigint; paymentId?: string }
  | { command: "ledger"; accountId: string; limit?: number }
  | { command: "reconcile"; staleHoldHours?: number; againstFilings?: { since: Date; until: Date } };

/**
 * reconcile --against-filings without --until ends the window this long ago: an acceptance
 * normally reaches billing within seconds, but one whose first deliveries failed goes through the
 * retry tiers of billing.events (1 s, 5 s, 30 s, 2 min, 10 min) before it is applied.
 */
export const AGAINST_FILINGS_SETTLE_MS = 15 * 60 * 1000;
/** ... and without --since starts at the beginning: every filing ever finalized. */
export const AGAINST_FILINGS_SINCE = new Date("1970-01-01T00:00:00.000Z");

export const BILLING_USAGE = `usage:
  admin balance --account ACCOUNT_ID
  admin top-up --account ACCOUNT_ID --amount GBP [--payment-id ID]
  admin ledger --account ACCOUNT_ID [--limit N]
  admin reconcile [--stale-hold-hours N] [--against-filings [--since ISO] [--until ISO]]
  admin open-account --account ACCOUNT_ID --balance GBP [--name NAME]`;

export function isBillingAdminCommand(name: string | undefined): name is BillingAdminCommandName {
  return (BILLING_ADMIN_COMMANDS as readonly string[]).includes(name ?? "");
}

function options<T extends Record<string, { type: "string" } | { type: "boolean" }>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function accountOption(value: string | undefined): string {
  if (!value) throw new UsageError("--account ACCOUNT_ID is required");
  if (!AccountId.safeParse(value).success) throw new UsageError(`--account must be an account id like acc_..., got "${value}"`);
  return value;
}

function amountOption(flag: string, value: string | undefined, { allowZero }: { allowZero: boolean }): bigint {
  if (value === undefined) throw new UsageError(`${flag} is required (GBP, e.g. 50 or 50.00)`);
  const pence = parseGbpToPence(value);
  if (pence === null || (!allowZero && pence === 0n) || pence > MAX_CREDIT_PENCE) {
    throw new UsageError(
      `${flag} must be ${allowZero ? "an" : "a positive"} amount in GBP with at most two decimals, e.g. 50 or 50.00; got "${value}"`,
    );
  }
  return pence;
}

function wholeNumber(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value) || Number(value) > max)
    throw new UsageError(`${flag} must be a whole number from 1 to ${max}, got "${value}"`);
  return Number(value);
}

const Instant = z.union([z.iso.datetime({ offset: true }), z.iso.date().transform((date) => `${date}T00:00:00.000Z`)]);

/** An ISO 8601 date-time with its offset (`2026-10-01T00:00:00Z`), or a date (midnight UTC). */
function instantOption(flag: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = Instant.safeParse(value);
  if (!parsed.success)
    throw new UsageError(
      `${flag} must be an ISO 8601 date-time with its offset (2026-10-01T00:00:00Z) or a date (2026-10-01), got "${value}"`,
    );
  return new Date(parsed.data);
}

/** Parses `admin <billing command> [--flags]` strictly: unknown flags, positionals and bad values are errors. */
export function parseBillingAdminArgs(argv: string[], now: Date = new Date()): BillingAdminCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case "open-account": {
      const values = options(rest, { account: { type: "string" }, balance: { type: "string" }, name: { type: "string" } });
      const name = values.name?.trim();
      return {
        command,
        accountId: accountOption(values.account),
        openingBalancePence: amountOption("--balance", values.balance, { allowZero: true }),
        ...(name ? { name } : {}),
      };
    }
    case "balance": {
      const values = options(rest, { account: { type: "string" } });
      return { command, accountId: accountOption(values.account) };
    }
    case "top-up": {
      const values = options(rest, { account: { type: "string" }, amount: { type: "string" }, "payment-id": { type: "string" } });
      const paymentId = values["payment-id"];
      if (paymentId !== undefined && !/^[A-Za-z0-9_.:-]{1,100}$/.test(paymentId)) {
        throw new UsageError(`--payment-id must be 1-100 letters, digits, '_', '.', ':' or '-', got "${paymentId}"`);
      }
      return {
        command,
        accountId: accountOption(values.account),
        amountPence: amountOption("--amount", values.amount, { allowZero: false }),
        ...(paymentId ? { paymentId } : {}),
      };
    }
    case "ledger": {
      const values = options(rest, { account: { type: "string" }, limit: { type: "string" } });
      const limit = wholeNumber("--limit", values.limit, 100_000);
      return { command, accountId: accountOption(values.account), ...(limit ? { limit } : {}) };
    }
    case "reconcile": {
      const values = options(rest, {
        "stale-hold-hours": { type: "string" },
        "against-filings": { type: "boolean" },
        since: { type: "string" },
        until: { type: "string" },
      });
      const staleHoldHours = wholeNumber("--stale-hold-hours", values["stale-hold-hours"], 24 * 365);
      const since = instantOption("--since", values.since);
      const until = instantOption("--until", values.until);
      if (!values["against-filings"]) {
        if (since || until) throw new UsageError("--since and --until go with --against-filings");
        return { command, ...(staleHoldHours ? { staleHoldHours } : {}) };
      }
      const window = { since: since ?? AGAINST_FILINGS_SINCE, until: until ?? new Date(now.getTime() - AGAINST_FILINGS_SETTLE_MS) };
      if (window.since >= window.until) {
        throw new UsageError(
          `--since (${window.since.toISOString()}) must be before --until (${window.until.toISOString()}${until ? "" : ", by default 15 minutes ago"})`,
        );
      }
      return { command, ...(staleHoldHours ? { staleHoldHours } : {}), againstFilings: window };
    }
    case undefined:
      throw new UsageError("a command is required");
    default:
      throw new UsageError(`unknown billing command "${command}"`);
  }
}
