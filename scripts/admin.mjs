#!/usr/bin/env node
// The root operator CLI: `npm run --silent admin -- <command> [--flags]`. Every command belongs
// to the workspace that owns its data and runs in that workspace's own CLI module, named by the
// "admin" entry of the "dormant" block of its package.json (gateway: accounts and API keys;
// billing: money; notifier: webhooks; filing: filing activity; bus: queues and dead-letter
// replay; ops: the operator's status view, which owns no data and gathers the others'). Each
// module exports `adminCli = { commands, usage, help?, run(argv, context) }`; the context carries
// the environment, the streams, every service's usage, the apps (name, opsPort) and `runCommand`,
// with which one module's command runs another's (create-account opens the billing account with
// billing's open-account; status runs queues and filing-activity). Run under tsx
// (scripts/run-ts.mjs). Prints one JSON object on stdout; `--help` prints help on stdout.
// Exit codes: 0 done (and --help), 1 failed, 2 bad invocation.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { discoverAdminModules, discoverApps } from "./lib/util.mjs";

const clis = await Promise.all(
  discoverAdminModules().map(async (module) => (await import(pathToFileURL(join(module.dir, module.admin)).href)).adminCli),
);
const apps = discoverApps().map((app) => ({ name: app.name, opsPort: app.opsPort }));
const usage = `usage:\n${clis.map((cli) => cli.usage.replace(/^usage:\n/, "")).join("\n")}`;
const HELP_FLAGS = ["--help", "-h"];

/** The usage lines of `command` in its CLI's usage (a line and the more indented ones after it). */
function usageOf(cli, command) {
  const lines = cli.usage.split("\n");
  const picked = [];
  let inside = false;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (new RegExp(`^admin ${command}(\\s|$)`).test(line.trim())) inside = true;
    else if (indent <= 2) inside = false;
    if (inside) picked.push(line);
  }
  return picked.join("\n");
}

/** `admin --help` (every command) or `admin COMMAND --help` (its usage and options); exit 0, 2 for an unknown command. */
function printHelp(command, stdout) {
  if (command === undefined) {
    stdout.write(
      `npm run --silent admin -- COMMAND [options]   (one JSON object on stdout; exit 0 done, 1 failed, 2 bad invocation)\n` +
        `commands:\n${usage.replace(/^usage:\n/, "")}\n` +
        `admin COMMAND --help shows a command's options. See docs/operations/operator-view.md.\n`,
    );
    return 0;
  }
  const cli = clis.find((candidate) => candidate.commands.includes(command));
  if (!cli) {
    process.stderr.write(`admin: unknown command "${command}"\n${usage}\n`);
    return 2;
  }
  const help = cli.help?.[command];
  stdout.write(`usage:\n${usageOf(cli, command)}\n${help ? `\n${help}\n` : ""}`);
  return 0;
}

/** Runs `argv` in the CLI that owns its command and returns the exit code. */
async function runCommand(argv, stdout) {
  const [command, ...rest] = argv;
  if (HELP_FLAGS.includes(command) || command === "help") return printHelp(rest[0], stdout);
  if (rest.some((arg) => HELP_FLAGS.includes(arg))) return printHelp(command, stdout);
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
    apps,
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
