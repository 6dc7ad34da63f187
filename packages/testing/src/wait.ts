import { createServer } from "node:net";

/** Polls `probe` until it returns a value other than undefined/false, or fails after the timeout. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 50, what = "condition" }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ""}`);
}

/**
 * Ports handed out below the kernel's ephemeral range (32768-60999 on Linux): servers that
 * listen on port 0 and outgoing connections take ports from that range, so a port chosen here
 * is not grabbed by them in the seconds between this check and the child process's listen().
 */
const PORT_RANGE = { from: 20_000, to: 32_000 } as const;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A TCP port free at the time of asking, outside the ephemeral range (see PORT_RANGE). */
export async function getFreePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${PORT_RANGE.from} and ${PORT_RANGE.to}`);
}
