import { parseArgs } from "node:util";
import { z } from "zod";
import { UsageError } from "@dormant/service-kit";

export const DASHBOARD_ADMIN_COMMANDS = ["dashboard-invite"] as const;

export interface DashboardInviteCommand {
  command: "dashboard-invite";
  accountId: string;
  email: string;
}

export const DASHBOARD_USAGE = `usage:
  admin dashboard-invite --account ACCOUNT_ID --email EMAIL`;

export const DASHBOARD_HELP = {
  "dashboard-invite":
    "Prints a one-time link (valid 24 hours, single use) with which the owner of an account made by\n" +
    "`admin create-account` sets their dashboard password and is signed in. The account must exist\n" +
    "(checked with the gateway over gateway.rpc); the email is the user's sign-in (a user is created,\n" +
    "or an existing user of the same account gets a new link). The link's host is DASHBOARD_PUBLIC_URL.",
};

/** Parses `admin dashboard-invite --account ID --email E` strictly. */
export function parseDashboardAdminArgs(argv: string[]): DashboardInviteCommand {
  const [command, ...rest] = argv;
  if (command !== "dashboard-invite")
    throw new UsageError(command === undefined ? "a command is required" : `unknown dashboard command "${command}"`);
  let values: { account?: string | undefined; email?: string | undefined };
  try {
    values = parseArgs({
      args: rest,
      options: { account: { type: "string" }, email: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.account || !/^acc_[A-Za-z0-9]{1,64}$/.test(values.account))
    throw new UsageError("--account ACCOUNT_ID (acc_...) is required");
  const email = z.email().max(254).safeParse(values.email?.trim());
  if (!email.success) throw new UsageError("--email EMAIL (an email address) is required");
  return { command, accountId: values.account, email: email.data };
}
