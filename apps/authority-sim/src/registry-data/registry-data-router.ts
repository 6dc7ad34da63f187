import express, { type Router } from "express";
import type { SimContext } from "../context.ts";
import { faultMiddleware } from "../faults/fault-middleware.ts";
import { apiKeyAuth } from "./api-key-auth.ts";
import { companyRoutes } from "./company-routes.ts";

/** The registry public data API with its faults, API-key check and rate limit (mount at `/registry-data`). */
export function registryDataApi(context: SimContext): Router {
  const router = express.Router();
  router.use(faultMiddleware("registry-data", { faults: context.faults, hanging: context.hanging, random: () => context.random() }));
  router.use(apiKeyAuth(context.config.registryData.apiKey));
  router.use(context.rateLimiter.middleware());
  router.use(companyRoutes(context));
  return router;
}
