// Makes a fresh clone runnable: pinned pnpm, workspace dependencies, generated Prisma clients.
// Each step is skipped when its inputs have not changed, so calling it on every command is cheap.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { root, log } from "./util.mjs";
import { pnpmBin } from "./pnpm.mjs";

function hashFiles(files) {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file);
    hash.update(existsSync(file) ? readFileSync(file) : "missing");
  }
  return hash.digest("hex");
}

function workspaceManifests() {
  const files = [join(root, "package.json"), join(root, "pnpm-workspace.yaml"), join(root, "pnpm-lock.yaml")];
  for (const group of ["apps", "packages", "tests"]) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const manifest = join(dir, name, "package.json");
      if (existsSync(manifest)) files.push(manifest);
    }
  }
  return files;
}

function installDependencies() {
  const stamp = join(root, "node_modules", ".dormant-install-stamp");
  const digest = hashFiles(workspaceManifests());
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return;
  const frozen = process.env.CI === "true" || process.env.CI === "1";
  log(`installing dependencies with pnpm${frozen ? " (frozen lockfile)" : ""}`);
  execFileSync(process.execPath, [pnpmBin(), "install", frozen ? "--frozen-lockfile" : "--prefer-offline", "--reporter=append-only"], {
    cwd: root,
    stdio: ["ignore", process.stderr, process.stderr],
    env: { ...process.env, CI: frozen ? "true" : (process.env.CI ?? "") },
  });
  mkdirSync(join(root, "node_modules"), { recursive: true });
  writeFileSync(stamp, hashFiles(workspaceManifests()));
}

/**
 * Prisma's schema engine is a native binary that Prisma downloads from binaries.prisma.sh, which
 * machines limited to package registries cannot reach. Client generation does not need it (it
 * uses WebAssembly), so point Prisma at a stand-in unless a real engine is configured. Migrations
 * are applied by the service kit's migrator (see docs/decisions.md), not by the schema engine.
 */
function prismaEnv() {
  const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
  if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = join(root, "scripts", "no-schema-engine.sh");
  return env;
}

function generatePrismaClients() {
  const appsDir = join(root, "apps");
  if (!existsSync(appsDir)) return;
  for (const name of readdirSync(appsDir).sort()) {
    const appDir = join(appsDir, name);
    const schema = join(appDir, "prisma", "schema.prisma");
    if (!existsSync(schema)) continue;
    const outDir = join(appDir, "src", "generated", "prisma");
    const stamp = join(outDir, ".schema-hash");
    const digest = hashFiles([schema, join(root, "pnpm-lock.yaml")]);
    if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) continue;
    log(`generating the Prisma client for apps/${name}`);
    execFileSync(process.execPath, [pnpmBin(), "exec", "prisma", "generate"], {
      cwd: appDir,
      stdio: ["ignore", process.stderr, process.stderr],
      env: prismaEnv(),
    });
    mkdirSync(outDir, { recursive: true });
    writeFileSync(stamp, digest);
  }
}

/**
 * The typed API client (packages/client): its types are generated from the gateway's committed
 * OpenAPI document (openapi-typescript, into src/generated/), then it is compiled to dist/, which
 * is what its package.json exports: other workspaces (the system tests) use the built package, as
 * an installed copy would be used. Rebuilt when the document, its sources or its settings change.
 */
function buildApiClient() {
  const dir = join(root, "packages", "client");
  if (!existsSync(join(dir, "package.json"))) return;
  const sources = readdirSync(join(dir, "src"), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".ts") && !file.startsWith("generated"))
    .sort()
    .map((file) => join(dir, "src", file));
  const inputs = ["package.json", "tsconfig.build.json", "scripts/generate.mjs"].map((file) => join(dir, file));
  const document = join(root, "apps", "gateway", "openapi", "dormant-filing-api.json");
  const digest = hashFiles([document, join(root, "pnpm-lock.yaml"), ...inputs, ...sources]);
  const stamp = join(dir, "node_modules", ".dormant-build-hash");
  const built = existsSync(join(dir, "src", "generated", "api.ts")) && existsSync(join(dir, "dist", "index.js"));
  if (built && existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return;
  log("generating the API client's types and building packages/client");
  execFileSync(process.execPath, [pnpmBin(), "run", "build"], { cwd: dir, stdio: ["ignore", process.stderr, process.stderr] });
  writeFileSync(stamp, digest);
}

export function bootstrap() {
  installDependencies();
  generatePrismaClients();
  buildApiClient();
}
