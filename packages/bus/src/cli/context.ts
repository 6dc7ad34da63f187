/** What the root admin CLI (scripts/admin.mjs) gives the bus's commands, and what they share. */
export interface BusCliContext {
  env: Record<string, string | undefined>;
  stdout: Pick<NodeJS.WritableStream, "write">;
  stderr: Pick<NodeJS.WritableStream, "write">;
}

/** The broker of a local machine (README "Configuration": AMQP_URL). */
export const DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672";

/** Bad invocation: exit code 2, the message and the usage on stderr. */
export class UsageError extends Error {
  override name = "UsageError";
}
