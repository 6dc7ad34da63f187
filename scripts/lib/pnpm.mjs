// Locates the pinned pnpm (package.json "packageManager"), installing it into .tools/ with npm
// when missing. corepack is deliberately not used: its signature check fails on this registry.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root, log } from "./util.mjs";

export function pinnedPnpmVersion() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const match = /^pnpm@(.+)$/.exec(pkg.packageManager ?? "");
  if (!match) throw new Error('package.json "packageManager" must be pnpm@<version>');
  return match[1];
}

export function pnpmBin() {
  const version = pinnedPnpmVersion();
  const toolsDir = join(root, ".tools");
  const bin = join(toolsDir, "node_modules", "pnpm", "bin", "pnpm.cjs");
  const installedPkg = join(toolsDir, "node_modules", "pnpm", "package.json");
  const installed = existsSync(installedPkg) ? JSON.parse(readFileSync(installedPkg, "utf8")).version : null;
  if (installed !== version) {
    log(`installing pnpm ${version} into .tools/ (one-off)`);
    execFileSync("npm", ["install", "--prefix", toolsDir, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `pnpm@${version}`], {
      stdio: ["ignore", process.stderr, process.stderr],
    });
  }
  return bin;
}

/**
 * The environment for child processes that call `pnpm` by name (turbo does): the pinned pnpm in
 * .tools/ comes first on PATH, so a machine without a global pnpm works the same.
 */
export function envWithPnpm(env = process.env) {
  pnpmBin();
  const toolsBin = join(root, ".tools", "node_modules", ".bin");
  return { ...env, PATH: `${toolsBin}:${env.PATH ?? ""}` };
}

/** Runs pnpm synchronously with the given args; its output goes to stderr unless told otherwise. */
export function runPnpm(args, { stdout = process.stderr, env = process.env } = {}) {
  execFileSync(process.execPath, [pnpmBin(), ...args], { cwd: root, stdio: ["ignore", stdout, process.stderr], env });
}
