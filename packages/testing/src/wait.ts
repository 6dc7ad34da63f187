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

/** Slices of PORT_RANGE, one per vitest worker (VITEST_POOL_ID), so that workers never pick the same port. */
const PORT_SLICES = 8;

/** This worker's slice of PORT_RANGE: files running at the same time in other workers use others. */
export function portSliceOf(poolId: string | undefined): { from: number; to: number } {
  const size = Math.floor((PORT_RANGE.to - PORT_RANGE.from) / PORT_SLICES);
  const index = (Number.parseInt(poolId ?? "0", 10) || 0) % PORT_SLICES;
  return { from: PORT_RANGE.from + index * size, to: PORT_RANGE.from + (index + 1) * size };
}

/**
 * Ports this module has handed out: a port is free until the process it is meant for listens on
 * it, so without this, two calls before that (a system's apps are given their ports first and
 * started after) could return the same one.
 */
const handedOut = new Set<number>();

/**
 * A TCP port free at the time of asking, outside the ephemeral range (see PORT_RANGE), in this
 * vitest worker's slice of it, and never one this module handed out before.
 */
export async function getFreePort(): Promise<number> {
  const slice = portSliceOf(process.env.VITEST_POOL_ID);
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = slice.from + Math.floor(Math.random() * (slice.to - slice.from));
    if (handedOut.has(port)) continue;
    // Taken before the check, so that a concurrent call cannot pick it meanwhile.
    handedOut.add(port);
    if (await canListen(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free port between ${slice.from} and ${slice.to}`);
}
