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

/**
 * Replaces a file by a new one. `pnpm deploy` hard-links the internal packages' files to the
 * workspace's own: writing into one in place would rewrite the repository's file too.
 */
function replaceFile(file, content) {
  rmSync(file);
  writeFileSync(file, content);
}

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
        const target = file.replace(/\.ts$/, ".js");
        if (existsSync(target)) rmSync(target);
        writeFileSync(target, output.outputText.replace(RELATIVE_TS_STRING, "$1$2.js$1"));
        rmSync(file);
        written++;
      } else if (file.endsWith(".mjs") || file.endsWith(".js")) {
        const text = readFileSync(file, "utf8");
        const rewritten = text.replace(RELATIVE_TS_STRING, "$1$2.js$1");
        if (rewritten !== text) replaceFile(file, rewritten);
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
  replaceFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
