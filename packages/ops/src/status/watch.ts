import type { StatusReport } from "./report.ts";

export const WATCH_INTERVAL_MS = 2_000;
const CLEAR_SCREEN = "\x1b[2J\x1b[H";

export interface WatchOptions {
  gather: () => Promise<StatusReport>;
  render: (report: StatusReport) => string;
  write: (text: string) => void;
  intervalMs?: number;
  /** Resolves when the watch should end (default: SIGINT or SIGTERM, i.e. Ctrl-C). */
  stopped?: Promise<void>;
}

/**
 * Resolves on the first SIGINT or SIGTERM. The handlers stay: Ctrl-C reaches this process twice
 * under `npm run admin` (from the terminal, and forwarded by scripts/run-ts.mjs), and the second
 * must not kill it mid-exit.
 */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.on("SIGINT", () => resolve());
    process.on("SIGTERM", () => resolve());
  });
}

/**
 * Clears the screen and draws the report, then again every `intervalMs` after the previous one was
 * drawn, until stopped (Ctrl-C): then it returns, the last report drawn having been left on screen.
 */
export async function watchStatus(options: WatchOptions): Promise<void> {
  const stopped = options.stopped ?? untilSignal();
  let done = false;
  void stopped.then(() => {
    done = true;
  });
  while (!done) {
    const report = await Promise.race([options.gather(), stopped.then(() => null)]);
    if (report === null || done) break;
    options.write(`${CLEAR_SCREEN}${options.render(report)}`);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, options.intervalMs ?? WATCH_INTERVAL_MS))), stopped]);
    clearTimeout(timer);
  }
}
