import { AsyncLocalStorage } from "node:async_hooks";

/** What follows one API request through every log line and bus message it causes. */
export interface RequestContext {
  requestId: string;
  /** W3C trace context header value, when known. */
  traceparent?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
