#!/usr/bin/env node
// npm run bench: install what is missing, make sure PostgreSQL, Redis and RabbitMQ answer, then
// run the gateway benchmark (apps/gateway/bench/run-bench.mjs), which writes docs/benchmarks.md,
// then the live benchmark of the whole chain (tests/system/bench/live-bench.ts), which adds its section.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { bootstrap } from "./lib/bootstrap.mjs";
import { ensureInfra } from "./lib/infra.mjs";
import { log, root } from "./lib/util.mjs";

bootstrap();
await ensureInfra({ start: process.env.START_INFRA !== "false" });
function runStep(args, name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
    child.on("exit", (code, signal) => {
      if (code !== 0) log(`the ${name} failed (${signal ?? code})`);
      resolve(code ?? 1);
    });
  });
}

const sandbox = await runStep([join(root, "apps", "gateway", "bench", "run-bench.mjs")], "sandbox benchmark");
if (sandbox !== 0) process.exit(sandbox);
// Then live submits through the whole system (tests/system/bench), which adds its own section.
process.exit(await runStep(["--import", "tsx", join(root, "tests", "system", "bench", "live-bench.ts")], "live benchmark"));
