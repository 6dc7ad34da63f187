#!/usr/bin/env node
// Builds one app for production: `node scripts/build-app.mjs <app> <outdir>`.
//   1. `pnpm deploy --prod`: the app with only its production dependencies (internal packages
//      copied in; no tsx, vitest, typescript or prisma CLI: the optional peers pnpm adds, such as
//      @prisma/client's prisma and typescript, are pruned at the end);
//   2. its generated Prisma client copied in (`npm run --silent setup` generates it from the schema);
//   3. the app and every internal package in it compiled from TypeScript to JavaScript in place
//      (scripts/lib/transpile-tree.mjs), tests and test harnesses removed.
// The result starts with plain `node src/main.js` (and `node src/migrate.js` for an app with a
// database). infra/docker/Dockerfile runs this in its build stage; tests/deploy tests it.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { envWithPnpm, pnpmBin } from "./lib/pnpm.mjs";
import { pruneTree } from "./lib/prune-tree.mjs";
import { transpileTree } from "./lib/transpile-tree.mjs";
import { log, root } from "./lib/util.mjs";

/** Packages that must never reach a production tree. */
export const DEV_ONLY_PACKAGES = ["tsx", "vitest", "typescript", "prisma", "@biomejs/biome", "turbo", "esbuild"];

const [app, outArg] = process.argv.slice(2);
if (!app || !outArg || !existsSync(join(root, "apps", app, "package.json"))) {
  process.stderr.write("usage: node scripts/build-app.mjs <app> <outdir>   (app: a directory of apps/)\n");
  process.exit(2);
}
const out = resolve(outArg);
const appDir = join(root, "apps", app);
const name = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")).name;

if (existsSync(join(appDir, "prisma", "schema.prisma")) && !existsSync(join(appDir, "src", "generated"))) {
  process.stderr.write(`apps/${app} has no generated Prisma client: run \`npm run --silent setup\` first\n`);
  process.exit(1);
}

/** The directories of the internal (@dormant/*) packages pnpm deployed into `tree`. */
function internalPackages(tree) {
  const store = join(tree, "node_modules", ".pnpm");
  return readdirSync(store)
    .filter((entry) => entry.startsWith("@dormant+"))
    .flatMap((entry) =>
      readdirSync(join(store, entry, "node_modules", "@dormant")).map((pkg) => join(store, entry, "node_modules", "@dormant", pkg)),
    )
    .filter((dir) => !lstatSync(dir).isSymbolicLink());
}

log(`deploying ${name} with its production dependencies to ${out}`);
rmSync(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [pnpmBin(), "--config.inject-workspace-packages=true", "--filter", name, "deploy", "--prod", "--prefer-offline", out],
  { cwd: root, stdio: ["ignore", process.stderr, process.stderr], env: envWithPnpm() },
);

const generated = join(appDir, "src", "generated");
// Removed first: a file pnpm hard-linked to the workspace's would be truncated by copying onto it.
rmSync(join(out, "src", "generated"), { recursive: true, force: true });
if (existsSync(generated)) cpSync(generated, join(out, "src", "generated"), { recursive: true });

let files = transpileTree(out);
// Every internal package in the tree, the app's own dependencies and theirs (only the former are linked at the top).
for (const pkg of internalPackages(out)) files += transpileTree(pkg);
rmSync(join(out, "pnpm-lock.yaml"), { force: true });
const pruned = pruneTree(out, DEV_ONLY_PACKAGES);

const stray = readdirSync(join(out, "node_modules", ".pnpm")).filter((entry) =>
  DEV_ONLY_PACKAGES.some((dev) => entry === dev || entry.startsWith(`${dev.replace("/", "+")}@`)),
);
if (stray.length > 0) throw new Error(`development packages in the production tree: ${stray.join(", ")}`);
log(
  `built ${name}: ${files} files compiled, ${pruned.length} development packages pruned; start with: node ${join(out, "src", "main.js")}`,
);
