// Writes the OpenAPI document the gateway serves at GET /api/v1/openapi.json to
// openapi/dormant-filing-api.json: the committed file the typed client (@dormant/client) generates
// its types from, exported as "@dormant/gateway/openapi.json". The JSON is laid out by the repo's
// formatter (Biome, 2-space indent, trailing newline), so `npm run check` accepts the file as written.
//
//   node --import tsx scripts/export-openapi.ts           rewrite the file
//   node --import tsx scripts/export-openapi.ts --check   exit 1 (and say so) when the file differs
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { API_ROUTES } from "../src/routes/index.ts";

const target = fileURLToPath(new URL("../openapi/dormant-filing-api.json", import.meta.url));
/** The repository root, where Biome finds biome.json wherever the script is started from. */
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const shown = relative(process.cwd(), target) || target;

/** The served document (same builder and routes as app.ts), formatted as Biome formats the file. */
function openApiFileText(): string {
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  return execFileSync(process.execPath, [biome, "format", `--stdin-file-path=${target}`], {
    input: `${JSON.stringify(buildOpenApiDocument(API_ROUTES), null, 2)}\n`,
    encoding: "utf8",
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
}

const text = openApiFileText();
if (process.argv.includes("--check")) {
  const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
  if (current !== text) {
    process.stderr.write(
      `${shown} ${current === undefined ? "is missing" : "differs from the document the gateway serves"}; ` +
        "run `node --import tsx scripts/export-openapi.ts` in apps/gateway and commit it\n",
    );
    process.exit(1);
  }
  process.stdout.write(`${shown} is up to date\n`);
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  process.stdout.write(`wrote ${shown}\n`);
}
