#!/usr/bin/env node
// npm test: install, check the infrastructure, format and lint, typecheck every workspace, then run the whole
// vitest suite. Tests isolate themselves (their own databases, vhosts and key prefixes, see
// packages/testing), so a running development stack is never disturbed.
import { spawnSync } from "node:child_process";
import { bootstrap } from "./lib/bootstrap.mjs";
import { ensureInfra } from "./lib/infra.mjs";
import { requireXsltproc } from "./lib/system-tools.mjs";
import { log, root } from "./lib/util.mjs";
import { envWithPnpm, pnpmBin } from "./lib/pnpm.mjs";

function run(args, label) {
  log(label);
  const result = spawnSync(process.execPath, [pnpmBin(), ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...envWithPnpm(), TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

bootstrap();
requireXsltproc();
await ensureInfra({ start: process.env.START_INFRA === "true" }).catch((error) => {
  log(error.message);
  log("start them (bash .ci/run does it for you) and run npm test again");
  process.exit(1);
});
if (process.env.CI === "true" || process.env.CI === "1") {
  // On CI nothing else is testing on this machine: clear what killed runs may have left.
  const cleanup = spawnSync(process.execPath, ["--import", "tsx", "packages/testing/src/cli/cleanup.ts"], { cwd: root, stdio: "inherit" });
  if (cleanup.status !== 0) log("could not clean up leftovers of earlier runs; continuing");
}
run(["exec", "biome", "ci", "."], "checking format and lint (Biome, biome.json)");
run(["exec", "tsc", "-p", "tsconfig.all.json"], "typechecking every workspace (tsconfig.all.json: one program)");
run(["exec", "vitest", "run", ...process.argv.slice(2)], "running the test suite");
// A real RabbitMQ restart disturbs whatever else runs on the broker: those tests
// run alone, after the whole suite passed, and only on a full run (no filter arguments).
if (process.argv.length <= 2) {
  run(
    ["-C", "tests/system", "exec", "vitest", "run", "--config", "vitest.destructive.config.ts"],
    "running the destructive system tests (RabbitMQ restarts)",
  );
}
