import type pg from "pg";

/**
 * Ends a node-postgres pool and waits (up to `timeoutMs`) until its connections are really
 * closed: pool.end() resolves earlier, and a database dropped right after would otherwise
 * terminate connections still closing. Safe to call twice.
 */
export async function endPoolFully(pool: pg.Pool, timeoutMs = 5_000): Promise<void> {
  if (pool.ending || pool.ended) return;
  const open = pool.totalCount;
  let closed = 0;
  let timer: NodeJS.Timeout | undefined;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    pool.on("remove", () => ++closed >= open && resolve());
    timer = setTimeout(resolve, timeoutMs);
  });
  await pool.end();
  await allClosed;
  clearTimeout(timer);
}
