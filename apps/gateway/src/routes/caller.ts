import type { Response } from "express";
import { requireAuth } from "../auth/context.ts";
import type { FilingBackend, FilingBackends, FilingCaller } from "../filing-backend/filing-backend.ts";
import { requestIdOf } from "../http/request-id.ts";

/** The authenticated caller of this request and the backend of its key's mode. */
export function callerOf(res: Response, backends: FilingBackends): { caller: FilingCaller; backend: FilingBackend } {
  const auth = requireAuth(res);
  const caller: FilingCaller = { accountId: auth.accountId, keyId: auth.keyId, mode: auth.mode, requestId: requestIdOf(res) };
  return { caller, backend: backends[auth.mode] };
}
