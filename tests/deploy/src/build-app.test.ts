import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, createTestRedisPrefix, createTestVhost, getFreePort, waitFor } from "@dormant/testing";
import type { TestDatabase, TestRedis, TestVhost } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoPath } from "./repo.ts";
import { buildApp, exitOf, installedPackages, startNode, TRACING_PRELOAD, typeScriptSources } from "./support/built-app.ts";

// scripts/build-app.mjs, as the image's build stage runs it, tested outside Docker: the gateway
// (a database with migrations, Redis, RabbitMQ, the generated Prisma client) is built, migrated
// and started with plain `node` in production mode against real servers.
describe("the production build of an app", () => {
  const out = join(mkdtempSync(join(tmpdir(), "dormant-build-")), "gateway");
  let database: TestDatabase;
  let vhost: TestVhost;
  let redis: TestRedis;
  let child: ChildProcess | undefined;
  // pnpm deploy hard-links the internal packages' files to the workspace's: the build must replace, never rewrite, them.
  const workspaceFiles = () =>
    ["apps", "packages"].flatMap((dir) =>
      readdirSync(repoPath(dir)).map((name) => {
        const file = repoPath(`${dir}/${name}/package.json`);
        return `${file}\n${readFileSync(file, "utf8")}`;
      }),
    );
  const before: string[] = [];

  beforeAll(async () => {
    [database, vhost] = await Promise.all([createTestDatabase({ label: "deploy_build" }), createTestVhost("deploy_build")]);
    redis = createTestRedisPrefix("deploy_build");
    before.push(...workspaceFiles());
    await buildApp("gateway", out);
  }, 240_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGKILL");
      await exitOf(child);
    }
    await redis?.cleanup();
    await database?.drop();
    await vhost?.delete();
    rmSync(join(out, ".."), { recursive: true, force: true });
  });

  it("leaves the workspace's own files as they were", () => {
    expect(workspaceFiles()).toEqual(before);
  });

  it("holds compiled JavaScript and production dependencies only", () => {
    const installed = installedPackages(out);
    for (const dev of ["tsx", "vitest", "typescript", "prisma", "esbuild", "@biomejs/biome", "@dormant/testing", "supertest"]) {
      expect(installed, dev).not.toContain(dev);
    }
    expect(installed).toContain("@prisma/client");
    expect(installed).toContain("express");
    expect(typeScriptSources(out)).toEqual([]);
  });

  it("migrates its database and serves /readyz under plain node, then stops cleanly", async () => {
    const port = await getFreePort();
    const env = {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      GATEWAY_DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
      AMQP_URL: vhost.url,
      HOST: "127.0.0.1",
      PORT: String(port),
      API_KEY_PEPPER: "deploy-test-pepper-0123456789abcdefghijklmnop",
      CREDENTIALS_SEALING_KEY_ID: "deploy",
      CREDENTIALS_SEALING_KEY: Buffer.alloc(32, 7).toString("base64"),
    };
    const migrate = startNode(out, "src/migrate.js", env);
    expect(await exitOf(migrate)).toBe(0);

    // As the image starts it: the tracing preload first, then the app.
    child = startNode(out, "src/main.js", { ...env, LOG_LEVEL: "info" }, TRACING_PRELOAD);
    let logs = "";
    child.stderr?.on("data", (chunk) => (logs += chunk));
    child.stdout?.on("data", (chunk) => (logs += chunk));
    const ready = await waitFor(
      async () => {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        return response?.status === 200 ? response.json() : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: "the built gateway's /readyz" },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${logs}`);
    });
    expect(ready).toMatchObject({ status: "ready" });
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).status).toBe(200);
    // Traced without tsx: the request's log line carries its trace and span ids.
    await waitFor(() => /"trace_id":"[0-9a-f]{32}","span_id":"[0-9a-f]{16}"/.test(logs), {
      timeoutMs: 5_000,
      what: `a log line with trace_id and span_id in:\n${logs}`,
    });

    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
  });
});
