// The root operator CLI's dispatcher (`npm run --silent admin -- <command>`): scripts/admin.mjs is
// only its bin (`process.exitCode = await runRootAdmin(argv, process streams)`), so tests run the
// very same dispatch in their own process (runRootAdmin with their own env and buffers) instead of
// a Node and tsx start-up per command; a spawn of the bin itself stays in a few tests.
//
// Every command belongs to the workspace that owns its data and runs in that workspace's own CLI
// module, named by the "admin" entry of the "dormant" block of its package.json (gateway: accounts
// and API keys; billing: money; notifier: webhooks; filing: filing activity; bus: queues and
// dead-letter replay; ops: the operator's status view, which owns no data and gathers the
// others'). Each module exports `adminCli = { commands, usage, help?, run(argv, context) }`; the
// context carries the environment, the streams, every service's usage, the apps (name, opsPort)
// and `runCommand`, with which one module's command runs another's (create-account opens the
// billing account with billing's open-account; status runs queues and filing-activity). Prints one
// JSON object on stdout; `--help` prints help on stdout. Exit codes: 0 done (and --help), 1
// failed, 2 bad invocation.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AdminContext, CliStreams, CommandOutput, DiscoveredApp } from "@dormant/service-kit";

/** What a workspace's admin module exports as `adminCli`. */
interface WorkspaceAdminCli {
  commands: readonly string[];
  usage: string;
  help?: Partial<Record<string, string>>;
  run(argv: string[], context: AdminContext): Promise<number>;
}

/** What one run of the root CLI reads and writes: the environment and the streams. */
export interface RootAdminIo extends CliStreams {
  env: Record<string, string | undefined>;
}

/** The repository's root (this file is packages/ops/src/admin/root-admin.ts). */
export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), "../../../../..");

interface PackageJson {
  dormant?: { main?: string; admin?: string; order?: number; opsPort?: number };
}

function workspaces(root: string, folder: string): Array<{ name: string; dir: string; pkg: PackageJson }> {
  const parent = join(root, folder);
  if (!existsSync(parent)) return [];
  return readdirSync(parent)
    .map((name) => ({ name, dir: join(parent, name), file: join(parent, name, "package.json") }))
    .filter(({ file }) => existsSync(file))
    .map(({ name, dir, file }) => ({ name, dir, pkg: JSON.parse(readFileSync(file, "utf8")) as PackageJson }));
}

/** The apps (apps/* with a "dormant".main), in start order, as scripts/lib/util.mjs discoverApps orders them. */
function discoverApps(root: string): DiscoveredApp[] {
  return workspaces(root, "apps")
    .filter(({ pkg }) => pkg.dormant?.main)
    .map(({ name, pkg }) => ({ name, order: pkg.dormant?.order ?? 50, opsPort: pkg.dormant?.opsPort }))
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
    .map(({ name, opsPort }) => (opsPort === undefined ? { name } : { name, opsPort }));
}

/** Every workspace's admin module (package.json "dormant".admin), in folder then name order. */
async function loadAdminClis(root: string): Promise<WorkspaceAdminCli[]> {
  const modules = ["apps", "packages"].flatMap((folder) =>
    workspaces(root, folder)
      .filter(({ pkg }) => typeof pkg.dormant?.admin === "string")
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ dir, pkg }) => join(dir, pkg.dormant?.admin ?? "")),
  );
  return Promise.all(modules.map(async (file) => ((await import(pathToFileURL(file).href)) as { adminCli: WorkspaceAdminCli }).adminCli));
}

/** The usage lines of `command` in its CLI's usage (a line and the more indented ones after it). */
function usageOf(cli: WorkspaceAdminCli, command: string): string {
  const picked: string[] = [];
  let inside = false;
  for (const line of cli.usage.split("\n")) {
    const indent = line.length - line.trimStart().length;
    if (new RegExp(`^admin ${command}(\\s|$)`).test(line.trim())) inside = true;
    else if (indent <= 2) inside = false;
    if (inside) picked.push(line);
  }
  return picked.join("\n");
}

const HELP_FLAGS = ["--help", "-h"];

/** The root admin CLI over the admin modules it found: `run(argv, io)` runs one command and returns its exit code. */
export interface RootAdmin {
  run(argv: string[], io: RootAdminIo): Promise<number>;
}

function createRootAdmin(clis: WorkspaceAdminCli[], apps: DiscoveredApp[]): RootAdmin {
  const usage = `usage:\n${clis.map((cli) => cli.usage.replace(/^usage:\n/, "")).join("\n")}`;

  /** `admin --help` (every command) or `admin COMMAND --help` (its usage and options); exit 0, 2 for an unknown command. */
  function printHelp(command: string | undefined, stdout: CommandOutput, stderr: CommandOutput): number {
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
      stderr.write(`admin: unknown command "${command}"\n${usage}\n`);
      return 2;
    }
    const help = cli.help?.[command];
    stdout.write(`usage:\n${usageOf(cli, command)}\n${help ? `\n${help}\n` : ""}`);
    return 0;
  }

  /** Runs `argv` in the CLI that owns its command and returns the exit code. */
  async function run(argv: string[], io: RootAdminIo): Promise<number> {
    const [command, ...rest] = argv;
    if ((command !== undefined && HELP_FLAGS.includes(command)) || command === "help") return printHelp(rest[0], io.stdout, io.stderr);
    if (rest.some((arg) => HELP_FLAGS.includes(arg))) return printHelp(command, io.stdout, io.stderr);
    const cli = command === undefined ? undefined : clis.find((candidate) => candidate.commands.includes(command));
    if (!cli) {
      io.stderr.write(`admin: ${command === undefined ? "a command is required" : `unknown command "${command}"`}\n${usage}\n`);
      return 2;
    }
    return cli.run(argv, {
      env: io.env,
      stdout: io.stdout,
      stderr: io.stderr,
      usage,
      apps,
      runCommand: async (inner) => {
        let output = "";
        const code = await run(inner, {
          env: io.env,
          stderr: io.stderr,
          stdout: {
            write: (chunk: string | Uint8Array) => {
              output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
              return true;
            },
          },
        });
        return { code, stdout: output };
      },
    });
  }

  return { run };
}

const loaded = new Map<string, Promise<RootAdmin>>();

/** The root admin CLI of the repository at `root`, its admin modules loaded once per process. */
export function loadRootAdmin(root: string = REPO_ROOT): Promise<RootAdmin> {
  let admin = loaded.get(root);
  if (!admin) {
    admin = loadAdminClis(root).then((clis) => createRootAdmin(clis, discoverApps(root)));
    loaded.set(root, admin);
  }
  return admin;
}

/** Runs one root admin command (`["balance", "--account", "acc_..."]`) with `io` and returns its exit code. */
export async function runRootAdmin(argv: string[], io: RootAdminIo): Promise<number> {
  return (await loadRootAdmin()).run(argv, io);
}
