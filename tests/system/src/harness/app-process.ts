import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { appDir, type AppName, type ExtraAppName } from "./paths.ts";

export interface AppProcessOptions {
  name: AppName | ExtraAppName;
  /** The complete environment of the process (nothing is inherited from the test runner). */
  env: Record<string, string>;
  /** Answers 200 once the app serves (its /readyz). */
  readyUrl: string;
  /** Extra node arguments before `--import tsx` (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Copy every output line to this stream, prefixed with the app's name. */
  echo?: NodeJS.WritableStream;
  /** Lines of output kept for failure reports. */
  keepLines?: number;
}

/** Starts OpenTelemetry before the app's modules load, as `npm start` does (docs/operations/tracing.md). */
const TRACING_PRELOAD = "@dormant/service-kit/tracing/register";

/**
 * Seven apps start side by side, each loading its TypeScript through tsx (about 50 CPU seconds a
 * system): 20 s on an idle 2-core machine, but up to 100 s were seen with other test runs on it.
 */
const READY_TIMEOUT_MS = 150_000;
const STOP_TIMEOUT_MS = 30_000;

/** Every child of this process, killed if the test process exits without stopping them. */
const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/**
 * One app of the system as a separate OS process, started as `npm start` does
 * (`node --import tsx src/main.ts` in the app's folder): start and wait until ready, stop
 * gracefully (SIGTERM), kill -9, start again with the same environment (same ports, databases,
 * vhost). Keeps the last lines of its output for failure reports.
 */
export class AppProcess {
  private child: ChildProcess | undefined;
  private readonly lines: string[] = [];
  private exits: string[] = [];
  /** Set while the harness itself stops or kills the process: that exit is expected. */
  private expectingExit = false;

  constructor(private readonly options: AppProcessOptions) {}

  get name(): AppName | ExtraAppName {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Exits the harness did not cause (a crash), e.g. `exit code 1`. */
  get unexpectedExits(): readonly string[] {
    return this.exits;
  }

  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const child = spawn(
      process.execPath,
      [...(this.options.nodeArgs ?? []), "--import", "tsx", "--import", TRACING_PRELOAD, join("src", "main.ts")],
      {
        cwd: appDir(this.name),
        env: this.options.env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.child = child;
    this.expectingExit = false;
    live.add(child);
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on("line", (line) => this.record(line));
    }
    child.once("exit", (code, signal) => {
      live.delete(child);
      if (!this.expectingExit) this.exits.push(signal ? `signal ${signal}` : `exit code ${code}`);
    });
    await this.waitReady(child);
  }

  /** SIGTERM and wait for the exit (the app finishes its work in flight); SIGKILL after 30 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    this.expectingExit = true;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** kill -9: the process ends at once, whatever it was doing. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) throw new Error(`${this.name} is not running`);
    this.expectingExit = true;
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  }

  /** The last lines the process wrote (stdout and stderr). */
  logTail(lines = 40): string {
    return this.lines.slice(-lines).join("\n");
  }

  private record(line: string): void {
    this.lines.push(line);
    const keep = this.options.keepLines ?? 400;
    if (this.lines.length > keep) this.lines.splice(0, this.lines.length - keep);
    this.options.echo?.write(`${this.name} | ${line}\n`);
  }

  private async waitReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.name} exited while starting (${child.signalCode ?? child.exitCode}):\n${this.logTail()}`);
      }
      try {
        const response = await fetch(this.options.readyUrl, { signal: AbortSignal.timeout(2_000) });
        // Ready only when the answer comes from this child: another process listening on the
        // same port (a port taken between picking it and this child binding it) must not pass.
        if (response.status === 200 && ((await response.json()) as { pid?: unknown }).pid === child.pid) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${this.name} was not ready within ${READY_TIMEOUT_MS} ms (${this.options.readyUrl}):\n${this.logTail()}`);
  }
}
