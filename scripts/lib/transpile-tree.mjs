// Turns a deployed workspace package (an app, or an internal package copied into its
// node_modules by `pnpm deploy`) from TypeScript source into JavaScript in place, so that plain
// `node` runs it: each src/**/*.ts becomes the .js beside it (TypeScript's transpileModule: types
// erased, relative ".ts" specifiers rewritten to ".js"), tests and test harnesses are removed, and
// package.json "exports" name the .js files. The layout stays the same, so every
// `new URL("../../schemas/x.xsd", import.meta.url)` still finds its file.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  verbatimModuleSyntax: true,
  rewriteRelativeImportExtensions: true,
  sourceMap: false,
};
/** What only tests use: never part of a production tree. */
const TEST_ONLY = [/\.test\.ts$/, /(^|\/)test-support(\/|$)/, /(^|\/)testing(\/|$)/, /\.bench\.ts$/];
/** Relative ".ts" file names left in strings (`new URL("./worker.ts", import.meta.url)`, probes). */
const RELATIVE_TS_STRING = /(["'`])(\.{1,2}\/[^"'`\n]*?)\.ts\1/g;

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Transpiles `<packageDir>/src` in place and rewrites its package.json; returns the files written. */
export function transpileTree(packageDir) {
  const src = join(packageDir, "src");
  let written = 0;
  if (existsSync(src)) {
    for (const file of filesUnder(src)) {
      const relative = file.slice(src.length + 1);
      if (TEST_ONLY.some((pattern) => pattern.test(relative))) {
        rmSync(file);
        continue;
      }
      if (file.endsWith(".d.ts")) continue;
      if (file.endsWith(".ts")) {
        const output = ts.transpileModule(readFileSync(file, "utf8"), { compilerOptions: COMPILER_OPTIONS, fileName: file });
        writeFileSync(file.replace(/\.ts$/, ".js"), output.outputText.replace(RELATIVE_TS_STRING, "$1$2.js$1"));
        rmSync(file);
        written++;
      } else if (file.endsWith(".mjs") || file.endsWith(".js")) {
        writeFileSync(file, readFileSync(file, "utf8").replace(RELATIVE_TS_STRING, "$1$2.js$1"));
      }
    }
    for (const dir of ["test-support", "testing"]) rmSync(join(src, dir), { recursive: true, force: true });
  }
  for (const name of readdirSync(packageDir)) {
    if (/^vitest.*\.config\.ts$/.test(name) || /^tsconfig.*\.json$/.test(name)) rmSync(join(packageDir, name));
  }
  rewriteManifest(join(packageDir, "package.json"));
  return written;
}

function rewriteManifest(file) {
  const manifest = JSON.parse(readFileSync(file, "utf8"));
  if (manifest.exports && typeof manifest.exports === "object") {
    const exports = {};
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === "./testing") continue;
      exports[subpath] = typeof target === "string" ? target.replace(/\.ts$/, ".js") : target;
    }
    manifest.exports = exports;
  }
  if (manifest.dormant?.main) manifest.dormant = { ...manifest.dormant, main: manifest.dormant.main.replace(/\.ts$/, ".js") };
  delete manifest.devDependencies;
  delete manifest.scripts;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
