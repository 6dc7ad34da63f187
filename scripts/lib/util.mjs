import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readdirSync, readFileSync, existsSync } from "node:fs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Progress goes to stderr so that commands printing JSON on stdout stay clean. */
export function log(message) {
  process.stderr.write(`[dormant] ${message}\n`);
}

/**
 * The apps that make up the system, discovered from apps/* package.json files carrying a
 * "dormant" block: { "main": "src/main.ts", "database": "<db name or null>", "order": n }.
 */
export function discoverApps() {
  const appsDir = join(root, "apps");
  if (!existsSync(appsDir)) return [];
  return readdirSync(appsDir)
    .map((name) => ({ name, file: join(appsDir, name, "package.json") }))
    .filter(({ file }) => existsSync(file))
    .map(({ name, file }) => ({ name, dir: join(appsDir, name), pkg: JSON.parse(readFileSync(file, "utf8")) }))
    .filter(({ pkg }) => pkg.dormant?.main)
    .map(({ name, dir, pkg }) => ({ name, dir, ...pkg.dormant, order: pkg.dormant.order ?? 50 }))
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

/**
 * The operator command modules (`npm run admin`): every workspace under apps/* and packages/*
 * whose package.json "dormant" block names an "admin" module (exporting `adminCli`), in name order.
 */
export function discoverAdminModules() {
  return ["apps", "packages"].flatMap((folder) => {
    const parent = join(root, folder);
    if (!existsSync(parent)) return [];
    return readdirSync(parent)
      .map((name) => ({ name, dir: join(parent, name), file: join(parent, name, "package.json") }))
      .filter(({ file }) => existsSync(file))
      .map(({ name, dir, file }) => ({ name, dir, admin: JSON.parse(readFileSync(file, "utf8")).dormant?.admin }))
      .filter(({ admin }) => typeof admin === "string")
      .sort((a, b) => a.name.localeCompare(b.name));
  });
}
