import type { FilingBackend, FilingCaller } from "../filing-backend/filing-backend.ts";
import { sendData } from "../http/envelope.ts";
import { callerOf } from "./caller.ts";
import type { HandlerContext } from "./route.ts";

/**
 * The handler of a JSON read: the backend of the caller's key mode answers from the validated
 * input (typed by the route's declaration), and the answer is 200 with the data.
 */
export function readHandler<I>(read: (backend: FilingBackend, caller: FilingCaller, input: I) => Promise<unknown>) {
  return async (input: I, { res, deps }: HandlerContext): Promise<void> => {
    const { caller, backend } = callerOf(res, deps.backends);
    sendData(res, 200, await read(backend, caller, input));
  };
}
