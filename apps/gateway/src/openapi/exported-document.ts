import { fileURLToPath } from "node:url";

/** The committed copy of the served OpenAPI document (`@dormant/gateway/openapi.json`), written by `npm run openapi`. */
export const EXPORTED_OPENAPI_FILE = fileURLToPath(new URL("../../openapi/dormant-filing-api.json", import.meta.url));

/** The file's text for a document: JSON with a 2-space indent and a trailing newline. */
export function exportedOpenApiText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
