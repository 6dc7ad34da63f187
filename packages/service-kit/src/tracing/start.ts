import { register } from "node:module";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import type { TracerProvider } from "@opentelemetry/sdk-trace";
import { createAddHookMessageChannel } from "import-in-the-middle";
import type { AppTracing } from "./app-tracing.ts";
import { exporterFromEnv } from "./exporter.ts";
import { serviceInstrumentations } from "./instrumentations.ts";
import { installTracerProvider } from "./provider.ts";
import { samplerFromEnv } from "./sampler.ts";

let started: TracerProvider | undefined;

/**
 * Starts tracing for a service process. Must run before the modules it instruments are loaded:
 * each app's `src/main.ts` imports only this, calls it, then imports the service itself
 * dynamically (static imports would all load first). ESM modules are instrumented through
 * import-in-the-middle's loader hook, registered here for the modules the instrumentations name
 * only; CommonJS ones through require-in-the-middle. OTEL_SDK_DISABLED=true turns all of it off.
 */
export async function startTracing(app: AppTracing, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (started || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return;
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);
  const exporter = exporterFromEnv(env);
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  started = installTracerProvider({
    service: app.service,
    sampler: samplerFromEnv(env),
    ...(exporter ? { exporter } : {}),
    ...(Number.isFinite(delay) && delay > 0 ? { batchDelayMs: delay } : {}),
  });
  registerInstrumentations({ instrumentations: serviceInstrumentations(app, env), tracerProvider: started });
  await waitForAllMessagesAcknowledged();
}

/** Sends the spans still waiting in the batch (at shutdown); a collector that is down loses them. */
export async function flushTracing(): Promise<void> {
  await started?.shutdown().catch(() => undefined);
}
