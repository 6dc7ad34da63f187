import { hostHeaderValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";
import type { RequestHandler } from "express";

/**
 * DNS-rebinding protection of `/mcp` (the MCP transport spec's "validate the Origin header"): the
 * Host must name one of `allowedHosts` (the SDK's own check: port ignored), and a request that
 * carries an Origin (a browser's) must come from one of `allowedOrigins`. Refusals are 403 with a
 * JSON-RPC error, before the API key is looked at. The SDK 1.32 transport's own options for this
 * are deprecated in favour of middleware like this one.
 */
export function rebindingGuard(allowedHosts: readonly string[], allowedOrigins: readonly string[]): RequestHandler[] {
  const origins = new Set(allowedOrigins.map((origin) => origin.replace(/\/+$/, "").toLowerCase()));
  const checkOrigin: RequestHandler = (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || origins.has(origin.toLowerCase())) return next();
    res.status(403).json({
      jsonrpc: "2.0",
      error: { code: -32000, message: `Origin not allowed: ${origin.slice(0, 200)} (MCP_ALLOWED_ORIGINS lists the allowed ones)` },
      id: null,
    });
  };
  return [hostHeaderValidation([...allowedHosts]), checkOrigin];
}
