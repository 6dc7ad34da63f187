import { parseArgs } from "node:util";
import { WEBHOOK_ENDPOINT_ID_PATTERN, WEBHOOK_EVENT_ID_PATTERN } from "@dormant/contracts";
import { UsageError } from "@dormant/service-kit";

export const NOTIFIER_ADMIN_COMMANDS = ["webhook-endpoints", "replay-webhook"] as const;

export type NotifierAdminCommand =
  | { command: "webhook-endpoints"; accountId: string; mode?: "live" | "test" }
  | { command: "replay-webhook"; eventId: string; endpointId: string };

export const NOTIFIER_USAGE = `usage:
  admin webhook-endpoints --account ACCOUNT_ID [--mode live|test]
  admin replay-webhook --event EVT_ID --endpoint WE_ID`;

function options<T extends Record<string, { type: "string" }>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Parses `admin <notifier command> [--flags]` strictly: unknown flags, positionals and bad values are errors. */
export function parseNotifierAdminArgs(argv: string[]): NotifierAdminCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case "webhook-endpoints": {
      const values = options(rest, { account: { type: "string" }, mode: { type: "string" } });
      if (!values.account || !/^[A-Za-z0-9_-]{1,100}$/.test(values.account)) throw new UsageError("--account ACCOUNT_ID is required");
      if (values.mode !== undefined && values.mode !== "live" && values.mode !== "test")
        throw new UsageError(`--mode must be live or test, got "${values.mode}"`);
      return { command, accountId: values.account, ...(values.mode ? { mode: values.mode } : {}) };
    }
    case "replay-webhook": {
      const values = options(rest, { event: { type: "string" }, endpoint: { type: "string" } });
      if (!values.event || !WEBHOOK_EVENT_ID_PATTERN.test(values.event)) throw new UsageError("--event EVT_ID (evt_...) is required");
      if (!values.endpoint || !WEBHOOK_ENDPOINT_ID_PATTERN.test(values.endpoint))
        throw new UsageError("--endpoint WE_ID (we_...) is required");
      return { command, eventId: values.event, endpointId: values.endpoint };
    }
    case undefined:
      throw new UsageError("a command is required");
    default:
      throw new UsageError(`unknown notifier command "${command}"`);
  }
}
