#!/usr/bin/env node
// npm start: install what is missing, make sure the infrastructure answers, create and migrate
// every service database, start every app of the system, and stop them all gracefully on
// Ctrl-C / SIGTERM. Safe to run again: every step is idempotent.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { bootstrap } from "./lib/bootstrap.mjs";
import { ensureInfra } from "./lib/infra.mjs";
import { requireXsltproc } from "./lib/system-tools.mjs";
import { discoverApps, log } from "./lib/util.mjs";

const port = Number(process.env.PORT ?? 3000);
const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? "development",
  // The MCP server signs its callers' addresses for the gateway with this (both apps get this
  // environment): a fresh secret per run unless one is given.
  MCP_CLIENT_ADDRESS_SECRET: process.env.MCP_CLIENT_ADDRESS_SECRET || randomBytes(32).toString("base64url"),
};
const STOP_GRACE_MS = Number(process.env.STOP_GRACE_MS ?? 25000);

function portInUse(p) {
  return new Promise((resolve) => {
    const s = connect({ host: "127.0.0.1", port: p });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

async function main() {
  if (await portInUse(port)) {
    log(`port ${port} is already in use: is the system already running? (set PORT to use another port)`);
    process.exit(1);
  }
  bootstrap();
  requireXsltproc();
  await ensureInfra({ start: process.env.START_INFRA !== "false" });

  const apps = discoverApps();
  for (const app of apps) {
    const migrate = join(app.dir, "src", "migrate.ts");
    if (!existsSync(migrate)) continue;
    log(`migrating the ${app.name} database`);
    const result = spawnSync(process.execPath, ["--import", "tsx", migrate], { cwd: app.dir, stdio: "inherit", env });
    if (result.status !== 0) {
      log(`migrating ${app.name} failed; nothing was started`);
      process.exit(1);
    }
  }

  const children = new Map();
  let stopping = false;
  const width = Math.max(...apps.map((a) => a.name.length));

  for (const app of apps) {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--import", "@dormant/service-kit/tracing/register", join(app.dir, app.main)],
      {
        cwd: app.dir,
        stdio: ["ignore", "pipe", "pipe"],
        env,
      },
    );
    children.set(app.name, child);
    const prefix = `${app.name.padEnd(width)} | `;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${prefix + line}\n`));
    }
    child.on("exit", (code, signal) => {
      children.delete(app.name);
      if (!stopping) {
        log(`${app.name} exited unexpectedly (${signal ?? code}); stopping the system`);
        stop(1);
      } else if (children.size === 0) {
        log("all apps stopped");
        process.exit(exitCode);
      }
    });
  }

  let exitCode = 0;
  function stop(code = 0) {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    log("stopping: letting every app finish its in-flight work");
    for (const child of children.values()) child.kill("SIGTERM");
    if (children.size === 0) process.exit(code);
    setTimeout(() => {
      for (const [name, child] of children) {
        log(`${name} did not stop within ${STOP_GRACE_MS} ms; killing it`);
        child.kill("SIGKILL");
      }
    }, STOP_GRACE_MS).unref();
  }
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));

  const deadline = Date.now() + 60000;
  while (!stopping && Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (res.ok) {
        log(`the system is up (${apps.map((a) => a.name).join(", ")})`);
        log(`API:  http://localhost:${port}/api/v1`);
        log(`docs: http://localhost:${port}/docs (OpenAPI: http://localhost:${port}/api/v1/openapi.json)`);
        if (apps.some((a) => a.name === "mcp"))
          log(`MCP (Streamable HTTP, your API key authenticates): http://localhost:${process.env.MCP_PORT ?? 3100}/mcp`);
        if (apps.some((a) => a.name === "dashboard"))
          log(`account dashboard (sign up, API keys): http://localhost:${process.env.DASHBOARD_PORT ?? 3200}`);
        log('get an API key: npm run --silent admin -- create-account --name "My agency" --balance 100');
        log("press Ctrl-C to stop");
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (!stopping) log(`the gateway did not answer on port ${port} within 60 s; see the logs above`);
}

main().catch((error) => {
  log(error.message);
  process.exit(1);
});
