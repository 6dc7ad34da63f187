import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

/** How to install the `xsltproc` command, for error messages. */
export const XSLTPROC_INSTALL_HINT = "install it: `apt-get install -y xsltproc` (Debian/Ubuntu, as root), `brew install libxslt` (macOS)";

/** `xsltproc` is not installed (or not on PATH). */
export class XsltprocMissingError extends Error {
  override readonly name = "XsltprocMissingError";
  constructor(command: string) {
    super(`${command} was not found: HMRC's business rules are applied with libxslt's xsltproc; ${XSLTPROC_INSTALL_HINT}`);
  }
}

/** xsltproc ran but did not produce a result (a time-out, a crash, an input it could not read). */
export class XsltprocError extends Error {
  override readonly name = "XsltprocError";
}

export interface XsltprocOptions {
  /** The command to run (default `xsltproc` from PATH). */
  command?: string;
  /** Killed (SIGKILL) and rejected after this many milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * Child processes of xsltproc running at once, in this process, at most: one per core. A burst
 * of calls queues here instead of starting a process each (each one costs ~90 ms of CPU and
 * ~40 MB for HMRC's 1.2 MB stylesheet).
 */
const MAX_RUNNING = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function slot(signal: AbortSignal | undefined): Promise<() => void> {
  if (running >= MAX_RUNNING) {
    await new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        const index = waiting.indexOf(start);
        if (index >= 0) waiting.splice(index, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new XsltprocError("aborted"));
      };
      signal?.addEventListener("abort", abort, { once: true });
      waiting.push(start);
    });
  }
  running += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running -= 1;
    waiting.shift()?.();
  };
}

/**
 * xsltproc's own diagnostic lines, at most three: libxml2 follows a parser error with the line of
 * input it failed on and a caret line, and the input may hold a credential (a GovTalk header), so
 * only lines that are libxml2's or libxslt's messages are kept.
 */
function diagnostics(stderr: string): string {
  const ours = /^(?:-:\d+: |runtime error|compilation error|xslt|XPath error|warning|error|unable|failed)/i;
  return stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => ours.test(line))
    .slice(0, 3)
    .join(" | ");
}

/**
 * Applies the stylesheet at `stylesheetPath` to `input` (given on standard input) with libxslt's
 * `xsltproc`, in a child process, so the caller's event loop is never blocked: the network is
 * refused (`--nonet`) and no DTD is loaded (`--novalid`). Resolves to the transformation's
 * output; rejects with XsltprocMissingError when the command is not installed and XsltprocError
 * on a time-out, an abort or a non-zero exit (with xsltproc's first error lines).
 */
export async function runXsltproc(stylesheetPath: string, input: string, options: XsltprocOptions): Promise<string> {
  const command = options.command ?? "xsltproc";
  const release = await slot(options.signal);
  try {
    return await new Promise<string>((resolve, reject) => {
      const child = spawn(command, ["--nonet", "--novalid", stylesheetPath, "-"], { stdio: ["pipe", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let settled = false;
      const finish = (error: Error | undefined, output?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", abort);
        if (error) {
          child.kill("SIGKILL");
          reject(error);
        } else resolve(output ?? "");
      };
      const timer = setTimeout(
        () => finish(new XsltprocError(`${command} did not finish within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      const abort = () => finish(options.signal?.reason instanceof Error ? options.signal.reason : new XsltprocError("aborted"));
      options.signal?.addEventListener("abort", abort, { once: true });
      if (options.signal?.aborted) abort();

      child.on("error", (error: NodeJS.ErrnoException) => {
        finish(
          error.code === "ENOENT" ? new XsltprocMissingError(command) : new XsltprocError(`${command} could not be run: ${error.message}`),
        );
      });
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
      // A child that exits before reading all of its input closes the pipe: its exit says why.
      child.stdin.on("error", () => undefined);
      child.on("close", (code, signal) => {
        if (code === 0) return finish(undefined, Buffer.concat(out).toString("utf8"));
        const stderr = diagnostics(Buffer.concat(err).toString("utf8"));
        finish(new XsltprocError(`${command} failed (${signal ?? `exit ${code}`})${stderr ? `: ${stderr}` : ""}`));
      });
      child.stdin.end(input, "utf8");
    });
  } finally {
    release();
  }
}
