import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What follows one API request through every log line and bus message it causes. Its trace
 * context is OpenTelemetry's own (the active span), not part of this.
 */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
