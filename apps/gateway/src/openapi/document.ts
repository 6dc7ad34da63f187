import { OpenApiGeneratorV31, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { API_PREFIX, API_VERSION } from "@dormant/contracts";
import type { Route } from "../routes/route.ts";
import { apiDescription } from "./description.ts";
import { registerWebhooks } from "./webhooks.ts";

type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

export const OPENAPI_PATH = "/openapi.json";

/** The OpenAPI 3.1 document of the public API, generated from the contracts' zod schemas. */
export function buildOpenApiDocument(routes: readonly Route[]): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKeyAuth", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "`api_live_<key_id>_<secret>` files for real; `api_test_<key_id>_<secret>` selects the sandbox.",
  });
  for (const route of routes) registry.registerPath(route.openapi);
  registry.registerPath({
    method: "get",
    path: OPENAPI_PATH,
    operationId: "getOpenApiDocument",
    tags: ["Health"],
    summary: "This document",
    description: "The OpenAPI 3.1 document of the API; needs no API key. A readable version is served at `/docs`.",
    responses: { 200: { description: "The OpenAPI document.", content: { "application/json": { schema: { type: "object" } } } } },
  });
  registerWebhooks(registry);
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: "3.1.0",
    info: { title: "Dormant Company Filing API", version: API_VERSION, description: apiDescription() },
    servers: [{ url: API_PREFIX }],
    tags: [
      { name: "Filings", description: "Submit and follow filings." },
      { name: "Documents", description: "Documents of accepted filings." },
      { name: "Companies", description: "What the registry's public data says of a company: its filing deadlines." },
      {
        name: "Webhooks",
        description:
          "Endpoints that receive signed filing events (Standard Webhooks) instead of polling; live and test keys have separate endpoints. The events are in the `webhooks` section.",
      },
      { name: "Health", description: "Health and description of the API." },
    ],
  });
}
