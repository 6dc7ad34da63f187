import { parseArgs } from "node:util";
import { AccountId } from "../ledger/accounts.ts";
import { MAX_CREDIT_PENCE, parseGbpToPence } from "../money/pence.ts";

export const BILLING_ADMIN_COMMANDS = ["open-account", "balance", "top-up", "ledger", "reconcile"] as const;
export type BillingAdminCommandName = (typeof BILLING_ADMIN_COMMANDS)[number];

export type BillingAdminCommand =
  | { command: "open-account"; accountId: string; openingBalancePence: bigint; name?: string }
  | { command: "balance"; accountId: string }
  | { command: "top-up"; accountId: string; amountPence: bigint; paymentId?: string }
  | { command: "ledger"; accountId: string; limit?: number }
  | { command: "reconcile"; staleHoldHours?: number };

/** Bad invocation: the CLI exits with code 2 and prints the message and the usage on stderr. */
export class UsageError extends Error {
  override name = "UsageError";
}

export const BILLING_USAGE = `usage:
  admin balance --account ACCOUNT_ID
  admin top-up --account ACCOUNT_ID --amount GBP [--payment-id ID]
  admin ledger --account ACCOUNT_ID [--limit N]
  admin reconcile [--stale-hold-hours N]
  admin open-account --account ACCOUNT_ID --balance GBP [--name NAME]`;

export function isBillingAdminCommand(name: string | undefined): name is BillingAdminCommandName {
  return (BILLING_ADMIN_COMMANDS as readonly string[]).includes(name ?? "");
}

function options<T extends Record<string, { type: "string" }>>(args: string[], spec: T) {
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
    throw new UsageError(`${flag} must be ${allowZero ? "an" : "a positive"} amount in GBP with at most two decimals, e.g. 50 or 50.00; got "${value}"`);
  }
  return pence;
}

function wholeNumber(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value) || Number(value) > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max}, got "${value}"`);
  return Number(value);
}

/** Parses `admin <billing command> [--flags]` strictly: unknown flags, positionals and bad values are errors. */
export function parseBillingAdminArgs(argv: string[]): BillingAdminCommand {
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
      const values = options(rest, { "stale-hold-hours": { type: "string" } });
      const staleHoldHours = wholeNumber("--stale-hold-hours", values["stale-hold-hours"], 24 * 365);
      return { command, ...(staleHoldHours ? { staleHoldHours } : {}) };
    }
    case undefined:
      throw new UsageError("a command is required");
    default:
      throw new UsageError(`unknown billing command "${command}"`);
  }
}
