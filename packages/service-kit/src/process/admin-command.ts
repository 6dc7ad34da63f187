import { ConfigError } from "../env.ts";
import { adminFailure, type CliStreams } from "./admin-context.ts";

/** A bad invocation (unknown command, missing or malformed option): exit code 2, with the usage. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** What a command printed and whether it succeeded (a report may be printed and still fail, exit 1). */
export interface AdminCommandResult {
  output: unknown;
  /** Printed on stderr after the output when the command failed. */
  failure?: string;
}

export interface AdminCommandOptions {
  /** Printed after a UsageError's message. */
  usage: string;
  /** Failures whose message tells the operator everything (exit 1 with the message alone); ConfigError always is one. */
  isExpected?: (error: unknown) => boolean;
  /** Called with any other failure before it is reported (to log it, for example). */
  onUnexpected?: (error: unknown) => void;
}

/**
 * Runs one admin command's body the same way for every service: exactly one JSON object on
 * stdout when it answers, `admin: ...` on stderr otherwise. Exit codes: 0 done, 1 failed
 * (the failure's message; `failed: ...` for one not expected), 2 bad invocation (with the usage).
 */
export async function runAdminCommand(
  streams: CliStreams,
  options: AdminCommandOptions,
  body: () => Promise<AdminCommandResult>,
): Promise<number> {
  try {
    const { output, failure } = await body();
    streams.stdout.write(`${JSON.stringify(output)}\n`);
    if (failure === undefined) return 0;
    return adminFailure(streams, 1, failure);
  } catch (error) {
    if (error instanceof UsageError) return adminFailure(streams, 2, `${error.message}\n${options.usage}`);
    if (error instanceof ConfigError || options.isExpected?.(error)) return adminFailure(streams, 1, (error as Error).message);
    options.onUnexpected?.(error);
    return adminFailure(streams, 1, `failed: ${(error as Error).message}`);
  }
}
