// The filing service's operator command: filing-activity (the filings submitted, accepted,
// rejected and errored in the last 5 and 60 minutes, and the oldest filings not yet final), read
// from the filing service's own database. `admin status` (packages/ops) runs it through the root
// admin CLI's dispatcher, so that nothing else reads the filing tables. The root admin CLI
// (scripts/admin.mjs) finds this module through the "admin" entry of package.json "dormant".
// Read only: the database is not created or migrated here (the service does that when it starts).
// Prints exactly one JSON object on stdout. Exit codes: 0 done, 1 failed (database unreachable or
// not migrated), 2 bad invocation.
import { parseArgs } from "node:util";
import { type AdminContext, adminFailure, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { createFilingDb } from "../db/client.ts";
import { filingDatabaseEnvShape } from "../db/settings.ts";
import { filingActivity, oldestUnfinished } from "../reads/filing-activity.ts";

export const FILING_ADMIN_COMMANDS = ["filing-activity"] as const;

export const FILING_USAGE = `usage:
  admin filing-activity`;

const HELP: Record<(typeof FILING_ADMIN_COMMANDS)[number], string> = {
  "filing-activity": `The filings submitted (every part acknowledged by its authority), accepted, rejected and
errored in the last 5 and 60 minutes, and the oldest filing not yet final of each type and status
(pending: a part not yet acknowledged; submitted: awaiting the authority's answer), read from the
filing database (FILING_DATABASE_URL). No options.`,
};

/** Runs `filing-activity` against FILING_DATABASE_URL as of `now`; returns the exit code. */
export async function runFilingAdminCli(
  argv: string[],
  context: Pick<AdminContext, "env" | "stdout" | "stderr">,
  now: () => Date = () => new Date(),
): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "filing-activity") {
    return adminFailure(context, 2, `unknown filing command "${command}"\n${FILING_USAGE}`);
  }
  try {
    parseArgs({ args: rest, options: {}, strict: true, allowPositionals: false });
  } catch (error) {
    return adminFailure(context, 2, `${(error as Error).message}\n${FILING_USAGE}`);
  }
  let databaseUrl: string;
  try {
    databaseUrl = parseEnv(z.object(filingDatabaseEnvShape), context.env).FILING_DATABASE_URL;
  } catch (error) {
    return adminFailure(context, 1, (error as Error).message);
  }
  const db = createFilingDb(databaseUrl, { poolMax: 2 });
  try {
    const at = now();
    const [filings, oldest] = await Promise.all([filingActivity(db, at), oldestUnfinished(db, at)]);
    const output = {
      as_of: at.toISOString(),
      filings,
      oldest_unfinished_age_seconds: oldest.length === 0 ? null : Math.max(...oldest.map((entry) => entry.age_seconds)),
      oldest_unfinished: oldest,
    };
    context.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    // Prisma's message starts with the invocation; the cause is its last line.
    const cause = (error as Error).message
      .split("\n")
      .filter((line) => line.trim() !== "")
      .at(-1);
    return adminFailure(context, 1, `filing-activity failed: ${cause}`);
  } finally {
    await db.$disconnect();
  }
}

/** This CLI as the root admin CLI (scripts/admin.mjs) runs it. */
export const adminCli = {
  commands: FILING_ADMIN_COMMANDS,
  usage: FILING_USAGE,
  help: HELP,
  run: (argv: string[], context: Pick<AdminContext, "env" | "stdout" | "stderr">) => runFilingAdminCli(argv, context),
};
