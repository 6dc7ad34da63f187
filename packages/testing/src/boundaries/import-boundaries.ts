import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** A workspace of the monorepo: its package name and its directory. */
export interface Workspace {
  name: string;
  dir: string;
}

/** One import that reaches into another workspace's files instead of its declared exports. */
export interface BoundaryViolation {
  file: string;
  specifier: string;
  reason: string;
}

const WORKSPACE_FOLDERS = ["apps", "packages", "tests"];
const SKIPPED_FOLDERS = new Set(["node_modules", "generated", "dist", "coverage"]);
// `from "x"`, `import "x"`, `import("x")`, `export ... from "x"`, `vi.mock("x")`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bvi\.mock\(\s*)["']([^"']+)["']/g;

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

function owner(workspaces: Workspace[], path: string): Workspace | undefined {
  return workspaces.find((workspace) => path === workspace.dir || path.startsWith(`${workspace.dir}${sep}`));
}

/**
 * The imports of `source` (the text of `file`) that reach into another workspace: a package
 * path into its `src/` (`@dormant/x/src/...`) or a relative path that climbs out of the file's
 * workspace into another's, or out of every workspace.
 */
export function boundaryViolations(workspaces: Workspace[], file: string, source: string): BoundaryViolation[] {
  const home = owner(workspaces, file);
  const violations: BoundaryViolation[] = [];
  for (const [, specifier] of source.matchAll(SPECIFIER)) {
    if (!specifier) continue;
    const deep = /^(@dormant\/[^/]+)\/src(?:\/|$)/.exec(specifier);
    if (deep && deep[1] !== home?.name) {
      violations.push({ file, specifier, reason: `imports ${deep[1]}'s src/ instead of its declared exports` });
    } else if (specifier.startsWith(".")) {
      const target = owner(workspaces, resolve(dirname(file), specifier));
      if (target?.dir !== home?.dir) {
        violations.push({ file, specifier, reason: target ? `climbs into ${target.name}` : "climbs out of its workspace" });
      }
    }
  }
  return violations;
}

/** Every boundary violation of every workspace under `root`, and how many files were read. */
export function scanImportBoundaries(root: string): { files: number; violations: BoundaryViolation[] } {
  const workspaces = listWorkspaces(root);
  const files = workspaces.flatMap((workspace) => typeScriptFiles(workspace.dir));
  const violations = files.flatMap((file) =>
    boundaryViolations(workspaces, file, readFileSync(file, "utf8")).map((violation) => ({
      ...violation,
      file: relative(root, violation.file),
    })),
  );
  return { files: files.length, violations };
}
