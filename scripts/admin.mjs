#!/usr/bin/env node
// The root operator CLI: `npm run --silent admin -- <command> [--flags]`. Every command belongs
// to the service that owns its data and runs in that service's own CLI module, named by the
// "admin" entry of the "dormant" block of its package.json (gateway: accounts and API keys;
// billing: money). Each module exports `adminCli = { commands, usage, run(argv, context) }`; the
// context carries the environment, the streams, every service's usage and `runCommand`, with
// which one service's command runs another's (create-account opens the billing account with
// billing's open-account). Run under tsx (scripts/run-ts.mjs). Prints one JSON object on stdout;
// exit codes: 0 done, 1 failed, 2 bad invocation.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { discoverApps } from "./lib/util.mjs";

const clis = await Promise.all(
  discoverApps()
    .filter((app) => app.admin)
    .map(async (app) => (await import(pathToFileURL(join(app.dir, app.admin)).href)).adminCli),
);
const usage = `usage:\n${clis.map((cli) => cli.usage.replace(/^usage:\n/, "")).join("\n")}`;

/** Runs `argv` in the CLI that owns its command and returns the exit code. */
async function runCommand(argv, stdout) {
  const [command] = argv;
  const cli = clis.find((candidate) => candidate.commands.includes(command));
  if (!cli) {
    process.stderr.write(`admin: ${command === undefined ? "a command is required" : `unknown command "${command}"`}\n${usage}\n`);
    return 2;
  }
  return cli.run(argv, {
    env: process.env,
    stdout,
    stderr: process.stderr,
    usage,
    runCommand: async (inner) => {
      let output = "";
      const code = await runCommand(inner, {
        write: (chunk) => {
          output += chunk;
          return true;
        },
      });
      return { code, stdout: output };
    },
  });
}

process.exitCode = await runCommand(process.argv.slice(2), process.stdout);
