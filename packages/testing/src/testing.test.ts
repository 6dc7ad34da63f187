import { Redis } from "ioredis";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { createTestDatabase, createTestRedisPrefix, createTestVhost, getFreePort, portSliceOf, waitFor } from "./index.ts";

describe("test infrastructure helpers", () => {
  it("clones a prepared template into an isolated database and drops it", async () => {
    const key = `helper-selftest-${Date.now()}`;
    const prepare = async (url: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query("CREATE TABLE marker (id int)");
      await c.end();
    };
    const a = await createTestDatabase({ label: "selftest", prepare, templateKey: key });
    const b = await createTestDatabase({ label: "selftest", prepare, templateKey: key });
    expect(a.name).not.toBe(b.name);
    const c = new pg.Client({ connectionString: a.url });
    await c.connect();
    await c.query("INSERT INTO marker VALUES (1)");
    await c.end();
    const d = new pg.Client({ connectionString: b.url });
    await d.connect();
    expect((await d.query("SELECT count(*)::int AS n FROM marker")).rows[0].n).toBe(0);
    await d.end();
    await a.drop();
    await b.drop();
  });

  it("scopes Redis keys under a prefix and removes them", async () => {
    const scope = createTestRedisPrefix("selftest");
    const client = new Redis(scope.url);
    await client.set(`${scope.prefix}a`, "1");
    await scope.cleanup();
    expect(await client.exists(`${scope.prefix}a`)).toBe(0);
    client.disconnect();
  });

  it("creates and deletes a RabbitMQ vhost", async () => {
    const vhost = await createTestVhost("selftest");
    expect(vhost.url).toContain(encodeURIComponent(vhost.vhost));
    await vhost.delete();
  });

  it("waitFor resolves with the probe's value and times out otherwise", async () => {
    let n = 0;
    expect(await waitFor(() => (++n >= 3 ? n : undefined), { intervalMs: 1 })).toBe(3);
    await expect(waitFor(() => false, { timeoutMs: 50, what: "never" })).rejects.toThrow(/never/);
  });

  it("hands out listenable ports below the kernel's ephemeral range", async () => {
    const port = await getFreePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
    await new Promise((resolve) => server.close(resolve));
  });

  it("never hands out a port twice, and keeps each vitest worker to its own slice", async () => {
    // Ports are chosen before the processes that use them listen (a system's apps start after all
    // of its ports are chosen), so a port still free must not be handed out again.
    const ports = await Promise.all(Array.from({ length: 200 }, () => getFreePort()));
    expect(new Set(ports).size).toBe(200);
    const slice = portSliceOf(process.env.VITEST_POOL_ID);
    for (const port of ports) expect(port >= slice.from && port < slice.to, String(port)).toBe(true);
    const slices = ["1", "2", "3"].map(portSliceOf);
    expect(slices[0]!.to).toBeLessThanOrEqual(slices[1]!.from);
    expect(slices[1]!.to).toBeLessThanOrEqual(slices[2]!.from);
  });
});
