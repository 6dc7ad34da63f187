import { API_VERSION, HealthResponse } from "@dormant/contracts";
import { jsonResponse } from "../openapi/responses.ts";
import { defineRoute } from "./route.ts";

/** `GET /health`: no key, not wrapped in the envelope (spec section 4). */
export const healthRoute = defineRoute({
  kind: "public",
  openapi: {
    method: "get",
    path: "/health",
    operationId: "getHealth",
    tags: ["Health"],
    summary: "Health check",
    description: "Answers while the gateway is up. Needs no API key; the body is not wrapped in the envelope.",
    responses: { 200: jsonResponse("The gateway is up.", HealthResponse, { authenticated: false }) },
  },
  request: {},
  async handle(_input, { res }) {
    const body: HealthResponse = { status: "ok", version: API_VERSION, timestamp: new Date().toISOString() };
    res.status(200).json(body);
  },
});
