import express, { type Request, type Response, type Router } from "express";
import type { SimContext } from "../context.ts";
import { faultMiddleware } from "../faults/fault-middleware.ts";
import { loseAnswer } from "../faults/lose-answer.ts";
import { recordExchange } from "../record-exchange.ts";
import { REGISTRY_GATEWAY_PATH } from "../authority-paths.ts";
import { sendXml, xmlBody, xmlBodyErrors } from "../xml/xml-body.ts";
import { answerRegistryRequest } from "./answer-registry-request.ts";

/** The simulated registry XML gateway: POST `/v1-0/xmlgw/Gateway` (mount at `/registry`). */
export function registryGatewayRouter(context: SimContext): Router {
  const router = express.Router();
  const faults = faultMiddleware("registry", { faults: context.faults, hanging: context.hanging, random: () => context.random() });
  router.post(REGISTRY_GATEWAY_PATH, ...xmlBody(context.config.maxBodyBytes), faults, async (req: Request, res: Response) => {
    const outline = await context.xmlOutliner;
    const body = typeof req.body === "string" ? req.body : "";
    const answer = answerRegistryRequest(body, { context, now: context.now(), outline });
    // The loseAnswer fault acts after the FormSubmission was taken in (checked, recorded, decided).
    const lost = "xml" in answer && answer.received.kind === "submit" ? context.faults.takeLostAnswer("registry") : undefined;
    recordExchange(context, "registry", lost ? { ...answer.received, lostAnswer: lost } : answer.received, body);
    if ("hang" in answer) context.hanging.hold(res);
    else if (lost) loseAnswer(res, lost, context.hanging);
    else sendXml(res, answer.xml);
  });
  router.use(xmlBodyErrors);
  return router;
}
