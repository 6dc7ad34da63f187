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
