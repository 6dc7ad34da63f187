/** A stream's `write` that keeps what is written, for a CLI run in the test's own process. */
export interface CapturedStream {
  write(chunk: string | Uint8Array): boolean;
  /** Everything written so far, as UTF-8 text. */
  readonly text: string;
}

/** A stream for a CLI's stdout or stderr that keeps what the command writes (see CapturedStream). */
export function captureOutput(): CapturedStream {
  let text = "";
  return {
    write(chunk) {
      text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    },
    get text() {
      return text;
    },
  };
}

/**
 * Runs a CLI's in-process entry (a function of its streams that returns the exit code) with
 * captured stdout and stderr, and answers what a child process would: `{ code, stdout, stderr }`.
 */
export async function runCaptured(
  run: (streams: { stdout: CapturedStream; stderr: CapturedStream }) => Promise<number>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const code = await run({ stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
