import type { RequestHandler } from "express";
import type { Route } from "../routes/route.ts";
import { buildOpenApiDocument, OPENAPI_PATH } from "./document.ts";

/** `GET /api/v1/openapi.json`: the document, generated once per app, public (no key). */
export const openApiRoute = {
  path: OPENAPI_PATH,
  handler(routes: readonly Route[]): RequestHandler {
    const body = JSON.stringify(buildOpenApiDocument(routes));
    return (_req, res) => {
      res.setHeader("Cache-Control", "public, max-age=300");
      res.type("application/json").send(body);
    };
  },
};
