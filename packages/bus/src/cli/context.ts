import type { AdminContext } from "@dormant/service-kit";

/** The part of the root admin CLI's context (scripts/admin.mjs) the bus's commands use. */
export type BusCliContext = Pick<AdminContext, "env" | "stdout" | "stderr">;

/** The broker of a local machine (README "Configuration": AMQP_URL). */
export const DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672";

/** Bad invocation: exit code 2, the message and the usage on stderr. */
export class UsageError extends Error {
  override name = "UsageError";
}
