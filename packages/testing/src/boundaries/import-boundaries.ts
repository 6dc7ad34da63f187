import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** A workspace of the monorepo: its package name and its directory. */
export interface Workspace {
  name: string;
  dir: string;
}

/** The repository: its root directory and its workspaces. */
export interface Repo {
  root: string;
  workspaces: Workspace[];
}

/** One import (or path built with `new URL`) that reaches into another workspace's files instead of its declared exports. */
export interface BoundaryViolation {
  file: string;
  specifier: string;
  reason: string;
}

const WORKSPACE_FOLDERS = ["apps", "packages", "tests"];
const SKIPPED_FOLDERS = new Set(["node_modules", "generated", "dist", "coverage"]);
// `from "x"`, `import "x"`, `import("x")`, `export ... from "x"`, `vi.mock("x")`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bvi\.mock\(\s*)["']([^"']+)["']/g;
// `new URL("x", import.meta.url)`, alone or in `fileURLToPath(...)`: a file or folder resolved from
// the file's own folder. A template literal counts by its text before the first `${`.
const URL_PATH = /\bnew\s+URL\(\s*["'`]([^"'`$]*)[^"'`]*["'`]\s*,\s*import\.meta\.url\s*,?\s*\)/g;
// Repo-level folders that belong to no workspace, so have no declared exports to go through: a
// path built with `new URL` may reach them (never an import). infra/ holds the configuration that
// tests check against the code (@dormant/ops reads infra/observability, the contracts' topology
// test infra/rabbitmq/README.md); docs/ the screenshots the browser tests write. The repo root
// itself is allowed too: the working directory of the root `npm run admin` (ops' status test, the
// system tests) and the base of the deploy tests' repo-level files. Anything else outside every
// workspace (scripts/, apps/ itself) is a violation.
const REPO_LEVEL_FOLDERS = ["infra", "docs"];

/** Every workspace under apps/, packages/ and tests/ (a folder with a package.json). */
export function listWorkspaces(root: string): Workspace[] {
  return WORKSPACE_FOLDERS.flatMap((folder) => {
    const parent = join(root, folder);
    if (!existsSync(parent)) return [];
    return readdirSync(parent)
      .map((entry) => join(parent, entry))
      .filter((dir) => existsSync(join(dir, "package.json")))
      .map((dir) => ({ name: (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name, dir }));
  });
}

/** The TypeScript files of a workspace, without dependencies and generated code. */
export function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_FOLDERS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return /\.(?:c|m)?tsx?$/.test(entry.name) ? [path] : [];
  });
}

const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}${sep}`);

function owner(workspaces: Workspace[], path: string): Workspace | undefined {
  return workspaces.find((workspace) => within(path, workspace.dir));
}

function isRepoLevel(root: string, path: string): boolean {
  return path === resolve(root) || REPO_LEVEL_FOLDERS.some((folder) => within(path, resolve(root, folder)));
}

/**
 * The imports of `source` (the text of `file`) that reach into another workspace: a package
 * path into its `src/` (`@dormant/x/src/...`) or a relative path that climbs out of the file's
 * workspace into another's, or out of every workspace. Relative paths built with
 * `new URL("...", import.meta.url)` are checked the same way, except that they may reach the repo
 * root and its repo-level folders (REPO_LEVEL_FOLDERS).
 */
export function boundaryViolations(repo: Repo, file: string, source: string): BoundaryViolation[] {
  const home = owner(repo.workspaces, file);
  const climbing = (specifier: string, repoLevelAllowed: boolean): BoundaryViolation | undefined => {
    const path = resolve(dirname(file), specifier);
    const target = owner(repo.workspaces, path);
    if (target?.dir === home?.dir || (!target && repoLevelAllowed && isRepoLevel(repo.root, path))) return undefined;
    return { file, specifier, reason: target ? `climbs into ${target.name}` : "climbs out of its workspace" };
  };
  const violations: BoundaryViolation[] = [];
  for (const [, specifier] of source.matchAll(SPECIFIER)) {
    if (!specifier) continue;
    const deep = /^(@dormant\/[^/]+)\/src(?:\/|$)/.exec(specifier);
    if (deep && deep[1] !== home?.name) {
      violations.push({ file, specifier, reason: `imports ${deep[1]}'s src/ instead of its declared exports` });
    } else if (specifier.startsWith(".")) {
      const violation = climbing(specifier, false);
      if (violation) violations.push(violation);
    }
  }
  for (const [, path] of source.matchAll(URL_PATH)) {
    if (!path?.startsWith(".")) continue;
    const violation = climbing(path, true);
    if (violation) violations.push(violation);
  }
  return violations;
}

/** Every boundary violation of every workspace under `root`, and how many files were read. */
export function scanImportBoundaries(root: string): { files: number; violations: BoundaryViolation[] } {
  const repo: Repo = { root, workspaces: listWorkspaces(root) };
  const files = repo.workspaces.flatMap((workspace) => typeScriptFiles(workspace.dir));
  const violations = files.flatMap((file) =>
    boundaryViolations(repo, file, readFileSync(file, "utf8")).map((violation) => ({
      ...violation,
      file: relative(root, violation.file),
    })),
  );
  return { files: files.length, violations };
}
