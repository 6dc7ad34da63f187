#!/usr/bin/env node
// Runs a TypeScript entry point of the repo after making sure the workspace is installed.
// Used by the root scripts whose stdout must stay machine-readable (admin, irmark): every
// bootstrap message goes to stderr.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { bootstrap } from "./lib/bootstrap.mjs";
import { root } from "./lib/util.mjs";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write("usage: node scripts/run-ts.mjs <file.ts> [args...]\n");
  process.exit(2);
}
bootstrap();
const child = spawn(process.execPath, ["--import", "tsx", resolve(root, entry), ...args], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
