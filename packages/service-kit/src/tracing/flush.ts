import { trace } from "@opentelemetry/api";

interface Flushable {
  forceFlush?: () => Promise<void>;
}

/**
 * Sends the spans still waiting in the process's batch, if tracing was started (through the API
 * only, so that service-kit's main entry does not load the SDK). A collector that is down loses
 * them; shutdown goes on.
 */
export async function flushSpans(): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => Flushable };
  const delegate = provider.getDelegate?.();
  await delegate?.forceFlush?.().catch(() => undefined);
}
