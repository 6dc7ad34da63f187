import { hmrcEdgeAccessDeniedPage } from "@dormant/govtalk";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Target } from "../state/received-log.ts";
import type { Faults } from "./faults.ts";
import type { HangingRequests } from "./hanging-requests.ts";

export interface FaultMiddlewareDeps {
  faults: Faults;
  hanging: HangingRequests;
  random: () => number;
  /** The authority's own system-error answer (errorMode "protocol"); HTTP 500 when absent. */
  protocolError?: (req: Request, res: Response) => void;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Applies the target's injected faults before the authority handles a request (all but
 * `loseAnswer`, which acts after: the routers apply it to submissions they took in).
 */
export function faultMiddleware(target: Target, deps: FaultMiddlewareDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const faults = deps.faults.get(target);
    if (faults.reset) {
      req.socket.destroy();
      return;
    }
    if (faults.down) {
      res.status(503).set("Retry-After", "30").type("text/plain").send("Service Unavailable");
      return;
    }
    if (faults.edge403) {
      // HMRC's edge (Akamai) refusing the request before the Transaction Engine: its real page.
      res.status(403).type("text/html").send(hmrcEdgeAccessDeniedPage());
      return;
    }
    if (faults.hang) {
      deps.hanging.hold(res);
      return;
    }
    if (faults.slowMs > 0) await delay(faults.slowMs);
    if (faults.errorRate > 0 && deps.random() < faults.errorRate) {
      if (faults.errorMode === "protocol" && deps.protocolError) deps.protocolError(req, res);
      else res.status(500).type("text/plain").send("Internal Server Error");
      return;
    }
    next();
  };
}
