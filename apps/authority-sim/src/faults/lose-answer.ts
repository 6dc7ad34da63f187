import type { Response } from "express";
import type { LoseAnswerMode } from "./faults.ts";
import type { HangingRequests } from "./hanging-requests.ts";

/**
 * Loses the answer to a request the authority has already processed: "hold" keeps the
 * connection open with no answer (until the client gives up or the hang time passes), "close"
 * closes it at once. Either way the client cannot tell whether its submission was taken.
 */
export function loseAnswer(res: Response, mode: LoseAnswerMode, hanging: HangingRequests): void {
  if (mode === "hold") hanging.hold(res);
  else res.socket?.destroy();
}
