import { buildCt600ErrorResponse, taxError } from "@dormant/govtalk";
import express, { type Request, type Response, type Router } from "express";
import type { SimContext } from "../context.ts";
import { faultMiddleware } from "../faults/fault-middleware.ts";
import { loseAnswer } from "../faults/lose-answer.ts";
import { simBaseUrl } from "../http/base-url.ts";
import { recordExchange } from "../record-exchange.ts";
import { PREFIX, TAX_PATHS } from "../authority-paths.ts";
import { sendXml, xmlBody, xmlBodyErrors } from "../xml/xml-body.ts";
import { answerTaxRequest } from "./answer-tax-request.ts";
import { londonDateTime } from "./london-time.ts";

/** The simulated tax transaction engine: POST `/submission` and `/poll` (mount at `/tax`). */
export function taxRouter(context: SimContext): Router {
  const router = express.Router();
  const faults = faultMiddleware("tax", {
    faults: context.faults,
    hanging: context.hanging,
    random: () => context.random(),
    protocolError: (_req: Request, res: Response) => {
      const xml = buildCt600ErrorResponse({ errors: [taxError(1000)], gatewayTimestamp: londonDateTime(context.now()) });
      sendXml(res, xml);
    },
  });

  const answer = async (req: Request, res: Response) => {
    const body = typeof req.body === "string" ? req.body : "";
    const exchange = { context, baseUrl: `${simBaseUrl(req, context.config)}${PREFIX.tax}`, now: context.now() };
    const result = await answerTaxRequest(body, exchange);
    // The loseAnswer fault acts after the submission was taken in (checked, recorded, decided).
    const lost = "xml" in result && result.received.kind === "submit" ? context.faults.takeLostAnswer("tax") : undefined;
    recordExchange(context, "tax", lost ? { ...result.received, lostAnswer: lost } : result.received, body);
    if ("hang" in result) context.hanging.hold(res);
    else if (lost) loseAnswer(res, lost, context.hanging);
    else sendXml(res, result.xml);
  };
  // One route per endpoint, so metrics label each path on its own.
  for (const path of [TAX_PATHS.submission, TAX_PATHS.poll]) router.post(path, ...xmlBody(context.config.maxBodyBytes), faults, answer);
  router.use(xmlBodyErrors);
  return router;
}
