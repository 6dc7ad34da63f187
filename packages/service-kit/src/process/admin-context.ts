/** A stream an admin command writes to (process.stdout, or a test's buffer). */
export type CommandOutput = Pick<NodeJS.WritableStream, "write">;

/** Where an admin command writes: exactly one JSON object on stdout; messages and errors on stderr. */
export interface CliStreams {
  stdout: CommandOutput;
  stderr: CommandOutput;
}

/** The process's own streams, the default of every admin command. */
export const PROCESS_STREAMS: CliStreams = { stdout: process.stdout, stderr: process.stderr };

/** An app the root admin CLI discovered (package.json "dormant": its name and default ops port). */
export interface DiscoveredApp {
  name: string;
  opsPort?: number;
}

/**
 * What the root admin CLI (scripts/admin.mjs) gives the admin module of each workspace it runs a
 * command in (package.json "dormant".admin): the environment, the streams, every service's usage,
 * the apps it found, and `runCommand`, which runs another workspace's command (its exit code and
 * its stdout; its messages go to stderr). A module takes the part it needs (`Pick<...>`).
 */
export interface AdminContext extends CliStreams {
  env: Record<string, string | undefined>;
  /** Every service's usage, printed after a bad invocation. */
  usage: string;
  apps: readonly DiscoveredApp[];
  runCommand(argv: string[]): Promise<{ code: number; stdout: string }>;
}

/** Writes `admin: <message>` to stderr and answers `code`, the command's exit code. */
export function adminFailure(streams: Pick<CliStreams, "stderr">, code: number, message: string): number {
  streams.stderr.write(`admin: ${message}\n`);
  return code;
}
