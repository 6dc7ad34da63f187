import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestDatabase, createTestVhost, getFreePort, waitFor, type TestDatabase, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const appDir = resolve(fileURLToPath(import.meta.url), "../..");
const run = promisify(execFile);

// What `npm start` does for billing: src/migrate.ts on an empty database, then src/main.ts, which
// must become ready and stop cleanly (exit 0) on SIGTERM.
describe("billing process (migrate.ts, main.ts)", () => {
  let database: TestDatabase;
  let vhost: TestVhost;
  beforeAll(async () => {
    [database, vhost] = await Promise.all([createTestDatabase({ label: "bill_main" }), createTestVhost("bill_main")]);
  });
  afterAll(async () => {
    await vhost?.delete();
    await database?.drop();
  });

  it("migrates, serves readiness and metrics, and exits 0 on SIGTERM", async () => {
    const port = await getFreePort();
    const env = {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      BILLING_DATABASE_URL: database.url,
      AMQP_URL: vhost.url,
      BILLING_PORT: String(port),
    };
    await run(process.execPath, ["--import", "tsx", "src/migrate.ts"], { cwd: appDir, env });

    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], { cwd: appDir, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const ready = await waitFor(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/readyz`);
          return res.status === 200 ? ((await res.json()) as unknown) : undefined;
        },
        { timeoutMs: 45_000, intervalMs: 200, what: "billing readiness" },
      );
      expect(ready).toEqual({ status: "ready", pid: child.pid, checks: { database: "ok", bus: "ok" } });
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain("billing_holds_total");
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code, stderr).toBe(0);
  }, 90_000);
});
