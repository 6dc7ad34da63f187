// Writes the OpenAPI document the gateway serves at GET /api/v1/openapi.json to
// openapi/dormant-filing-api.json: the committed file the typed client (@dormant/client) generates
// its types from, exported as "@dormant/gateway/openapi.json". Laid out as JSON.stringify does
// (2-space indent, trailing newline); the formatter leaves the file alone (biome.json), and
// src/openapi/exported-document.test.ts fails when the served document and the file differ.
//
//   npm run openapi              rewrite the file (from the repository root)
//   npm run openapi -- --check   exit 1 (and say so) when the file differs
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { EXPORTED_OPENAPI_FILE, exportedOpenApiText } from "../src/openapi/exported-document.ts";
import { API_ROUTES } from "../src/routes/index.ts";

const shown = relative(process.cwd(), EXPORTED_OPENAPI_FILE) || EXPORTED_OPENAPI_FILE;
const text = exportedOpenApiText(buildOpenApiDocument(API_ROUTES));
if (process.argv.includes("--check")) {
  const current = existsSync(EXPORTED_OPENAPI_FILE) ? readFileSync(EXPORTED_OPENAPI_FILE, "utf8") : undefined;
  if (current !== text) {
    process.stderr.write(
      `${shown} ${current === undefined ? "is missing" : "differs from the document the gateway serves"}; run \`npm run openapi\` and commit it\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${shown} is up to date\n`);
} else {
  mkdirSync(dirname(EXPORTED_OPENAPI_FILE), { recursive: true });
  writeFileSync(EXPORTED_OPENAPI_FILE, text);
  process.stdout.write(`wrote ${shown}\n`);
}
