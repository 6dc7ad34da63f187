#!/usr/bin/env node
// The root operator CLI: `npm run --silent admin -- <command> [--flags]`, run under tsx
// (scripts/run-ts.mjs). This is only its bin: the dispatcher (which workspace's admin module owns a
// command, --help, exit codes) is packages/ops/src/admin/root-admin.ts, which tests also run in
// their own process. Prints one JSON object on stdout; `--help` prints help on stdout.
// Exit codes: 0 done (and --help), 1 failed, 2 bad invocation.
import { runRootAdmin } from "../packages/ops/src/admin/root-admin.ts";

process.exitCode = await runRootAdmin(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
