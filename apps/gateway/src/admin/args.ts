import { parseArgs } from "node:util";
import { ApiKeyModeSchema, ApiKeyName, GatewayAccountRequest, parseGbpToPence } from "@dormant/contracts";
import type { ApiKeyMode } from "../keys/format.ts";
import { MAX_RATE_PER_DAY, MAX_RATE_PER_MINUTE } from "./accounts.ts";
import { UsageError } from "@dormant/service-kit";

export const GATEWAY_ADMIN_COMMANDS = ["create-account", "create-key", "revoke-key", "list-accounts"] as const;

export type AdminCommand =
  | { command: "create-account"; name: string; openingBalancePence: bigint; rateLimitPerMinute?: number; rateLimitPerDay?: number }
  | { command: "create-key"; accountId: string; mode: ApiKeyMode; name?: string }
  | { command: "revoke-key"; keyId: string }
  | { command: "list-accounts" };

export const USAGE = `usage:
  admin create-account --name NAME --balance GBP [--rate-per-minute N] [--rate-per-day N]
  admin create-key --account ACCOUNT_ID --mode live|test [--name NAME]
  admin revoke-key --key KEY_ID
  admin list-accounts`;

function positiveInteger(flag: string, text: string | undefined, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text) || Number(text) > max)
    throw new UsageError(`${flag} must be a whole number from 1 to ${max}, got "${text}"`);
  return Number(text);
}

function options<T extends Record<string, { type: "string" }>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Parses `admin <command> [--flags]` strictly: unknown flags, positionals and bad values are errors. */
export function parseAdminArgs(argv: string[]): AdminCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case "create-account": {
      const values = options(rest, {
        name: { type: "string" },
        balance: { type: "string" },
        "rate-per-minute": { type: "string" },
        "rate-per-day": { type: "string" },
      });
      const name = values.name?.trim();
      if (!name) throw new UsageError("--name is required");
      if (name.length > 200) throw new UsageError("--name must be at most 200 characters");
      if (values.balance === undefined) throw new UsageError("--balance is required (GBP, e.g. 100 or 100.50)");
      const openingBalancePence = parseGbpToPence(values.balance);
      if (openingBalancePence === null) {
        throw new UsageError(`--balance must be an amount in GBP with at most two decimals, e.g. 100 or 100.50; got "${values.balance}"`);
      }
      const rateLimitPerMinute = positiveInteger("--rate-per-minute", values["rate-per-minute"], MAX_RATE_PER_MINUTE);
      const rateLimitPerDay = positiveInteger("--rate-per-day", values["rate-per-day"], MAX_RATE_PER_DAY);
      return {
        command,
        name,
        openingBalancePence,
        ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
        ...(rateLimitPerDay === undefined ? {} : { rateLimitPerDay }),
      };
    }
    case "create-key": {
      const values = options(rest, { account: { type: "string" }, mode: { type: "string" }, name: { type: "string" } });
      if (!values.account) throw new UsageError("--account ACCOUNT_ID is required");
      if (!GatewayAccountRequest.shape.account_id.safeParse(values.account).success)
        throw new UsageError(`--account must be an account id (acc_ followed by letters and digits), got "${values.account}"`);
      const mode = ApiKeyModeSchema.safeParse(values.mode);
      if (!mode.success) throw new UsageError(`--mode must be live or test${values.mode === undefined ? "" : `, got "${values.mode}"`}`);
      if (values.name === undefined) return { command, accountId: values.account, mode: mode.data };
      const name = ApiKeyName.safeParse(values.name);
      if (!name.success) throw new UsageError(`--name ${name.error.issues[0]?.message ?? "is invalid"}`);
      return { command, accountId: values.account, mode: mode.data, name: name.data };
    }
    case "revoke-key": {
      const values = options(rest, { key: { type: "string" } });
      if (!values.key) throw new UsageError("--key KEY_ID is required");
      return { command, keyId: values.key };
    }
    case "list-accounts":
      options(rest, {});
      return { command };
    case undefined:
      throw new UsageError("a command is required");
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}
