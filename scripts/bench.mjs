#!/usr/bin/env node
// npm run bench: install what is missing, make sure PostgreSQL, Redis and RabbitMQ answer, then
// run the gateway benchmark (apps/gateway/bench/run-bench.mjs), which writes docs/benchmarks.md.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { bootstrap } from "./lib/bootstrap.mjs";
import { ensureInfra } from "./lib/infra.mjs";
import { log, root } from "./lib/util.mjs";

bootstrap();
await ensureInfra({ start: process.env.START_INFRA !== "false" });
const child = spawn(process.execPath, [join(root, "apps", "gateway", "bench", "run-bench.mjs")], { cwd: root, stdio: "inherit" });
child.on("exit", (code, signal) => {
  if (code !== 0) log(`the benchmark failed (${signal ?? code})`);
  process.exit(code ?? 1);
});
