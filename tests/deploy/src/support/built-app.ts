import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoPath } from "../repo.ts";

const run = promisify(execFile);

/** Builds `app` with scripts/build-app.mjs into `out` (as the image's build stage does). */
export async function buildApp(app: string, out: string): Promise<void> {
  await run(process.execPath, [repoPath("scripts/build-app.mjs"), app, out], { cwd: repoPath(""), maxBuffer: 16 * 1024 * 1024 });
}

/** The package names installed in a pnpm tree (`.pnpm` entries: `name@version...`, scopes as `@scope+name`). */
export function installedPackages(out: string): string[] {
  return readdirSync(join(out, "node_modules", ".pnpm"))
    .filter((entry) => entry !== "node_modules" && !entry.startsWith("."))
    .map((entry) => entry.slice(0, entry.indexOf("@", 1)).replace("+", "/"));
}

/** TypeScript sources (not declarations) left in the tree's own code and in every internal package pnpm deployed. */
export function typeScriptSources(out: string): string[] {
  const store = join(out, "node_modules", ".pnpm");
  const internal = readdirSync(store)
    .filter((entry) => entry.startsWith("@dormant+"))
    .flatMap((entry) =>
      readdirSync(join(store, entry, "node_modules", "@dormant")).map((pkg) => join(store, entry, "node_modules", "@dormant", pkg)),
    );
  return [out, ...internal]
    .map((dir) => join(dir, "src"))
    .filter((root) => existsSync(root))
    .flatMap((root) =>
      readdirSync(root, { recursive: true })
        .map(String)
        .map((file) => join(root, file)),
    )
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
}

/** The preload the image starts every app with (infra/docker/Dockerfile), resolved in the built tree. */
export const TRACING_PRELOAD = ["--import", "@dormant/service-kit/tracing/register"] as const;

/**
 * Runs `node [nodeArgs] <entry>` in the built tree with exactly `env` (plus PATH): no tsx, only
 * what the image runs (the tracing preload when `nodeArgs` is TRACING_PRELOAD).
 */
export function startNode(out: string, entry: string, env: Record<string, string>, nodeArgs: readonly string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, entry], {
    cwd: out,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}
