import express, { type Request, type Response, type Router } from "express";
import type { SimContext } from "../context.ts";
import { faultMiddleware } from "../faults/fault-middleware.ts";
import { recordExchange } from "../record-exchange.ts";
import { REGISTRY_GATEWAY_PATH } from "../paths.ts";
import { sendXml, xmlBody, xmlBodyErrors } from "../xml/xml-body.ts";
import { answerRegistryRequest } from "./answer-registry-request.ts";

/** The simulated registry XML gateway: POST `/v1-0/xmlgw/Gateway` (mount at `/registry`). */
export function registryGatewayRouter(context: SimContext): Router {
  const router = express.Router();
  const faults = faultMiddleware("registry", { faults: context.faults, hanging: context.hanging, random: () => context.random() });
  router.post(REGISTRY_GATEWAY_PATH, ...xmlBody(context.config.maxBodyBytes), faults, async (req: Request, res: Response) => {
    const outline = await context.xmlOutliner;
    const answer = answerRegistryRequest(typeof req.body === "string" ? req.body : "", { context, now: context.now(), outline });
    recordExchange(context, "registry", answer.received);
    if ("hang" in answer) context.hanging.hold(res);
    else sendXml(res, answer.xml);
  });
  router.use(xmlBodyErrors);
  return router;
}
