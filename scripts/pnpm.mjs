#!/usr/bin/env node
// The pinned pnpm (scripts/lib/pnpm.mjs) run with the given arguments from the repository root,
// for root scripts such as `npm run typecheck`; the pinned pnpm is first on PATH for whatever it
// starts (turbo calls `pnpm` by name).
import { spawnSync } from "node:child_process";
import { envWithPnpm, pnpmBin } from "./lib/pnpm.mjs";
import { root } from "./lib/util.mjs";

const result = spawnSync(process.execPath, [pnpmBin(), ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...envWithPnpm(), TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
});
process.exit(result.status ?? 1);
