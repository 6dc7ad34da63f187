import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from "@opentelemetry/api";
import { SamplingDecision } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { exporterFromEnv } from "./exporter.ts";
import { join } from "node:path";
import { appTracingOf } from "./app-tracing.ts";
import { enabledInstrumentations, serviceInstrumentations } from "./instrumentations.ts";
import { samplerFromEnv } from "./sampler.ts";

const sampledParent = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
});

/** How many of `n` new root traces the sampler keeps. */
function keptOf(env: NodeJS.ProcessEnv, n: number): number {
  const sampler = samplerFromEnv(env);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const traceId = (BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(32, "0").slice(-32);
    const result = sampler.shouldSample(ROOT_CONTEXT, traceId, "span", SpanKind.SERVER, {}, []);
    if (result.decision === SamplingDecision.RECORD_AND_SAMPLED) kept++;
  }
  return kept;
}

describe("sampling from the standard variables", () => {
  it("keeps a tenth of new traces by default, and every trace its caller sampled", () => {
    const kept = keptOf({}, 2000);
    expect(kept).toBeGreaterThan(120);
    expect(kept).toBeLessThan(280);
    const decision = samplerFromEnv({}).shouldSample(sampledParent, "4bf92f3577b34da6a3ce929d0e0e4736", "s", SpanKind.SERVER, {}, []);
    expect(decision.decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it("follows OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG", () => {
    expect(keptOf({ OTEL_TRACES_SAMPLER: "always_on" }, 100)).toBe(100);
    expect(keptOf({ OTEL_TRACES_SAMPLER: "always_off" }, 100)).toBe(0);
    expect(keptOf({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "1" }, 100)).toBe(100);
    expect(keptOf({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }, 100)).toBe(0);
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow(/not supported/);
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER_ARG: "2" })).toThrow(/between 0 and 1/);
  });
});

describe("export from the standard variables", () => {
  it("exports nothing unless an OTLP endpoint is set", () => {
    expect(exporterFromEnv({})).toBeUndefined();
    expect(exporterFromEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBeUndefined();
    expect(exporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBeDefined();
    expect(exporterFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBeDefined();
    expect(() => exporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      /not supported/,
    );
  });
});

describe("instrumentations", () => {
  it("loads http, express, ioredis and pg but those OTEL_NODE_DISABLED_INSTRUMENTATIONS names", () => {
    expect(enabledInstrumentations({})).toEqual(["http", "express", "ioredis", "pg"]);
    expect(enabledInstrumentations({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: "express, pg" })).toEqual(["http", "ioredis"]);
  });

  it("leaves an app's incoming requests to the app when its package.json says so (the gateway): outgoing HTTP only, no Express", () => {
    const repo = join(import.meta.dirname, "..", "..", "..", "..");
    const gateway = appTracingOf(join(repo, "apps", "gateway"));
    expect(gateway).toEqual({ service: "gateway", httpServerSpans: "app" });
    expect(appTracingOf(join(repo, "apps", "filing"))).toEqual({ service: "filing", httpServerSpans: "instrumentation" });
    // Each instrumentation enables itself when made: disabled again at once (this test only reads them).
    const made = (app: Pick<typeof gateway, "httpServerSpans">) => {
      const instrumentations = serviceInstrumentations(app, {});
      for (const instrumentation of instrumentations) instrumentation.disable();
      return instrumentations;
    };
    const names = (app: Pick<typeof gateway, "httpServerSpans">) => made(app).map((i) => i.instrumentationName);
    expect(names(gateway)).toEqual([
      "@opentelemetry/instrumentation-http",
      "@opentelemetry/instrumentation-ioredis",
      "@opentelemetry/instrumentation-pg",
    ]);
    expect(names({ httpServerSpans: "instrumentation" })).toContain("@opentelemetry/instrumentation-express");
    const http = made(gateway)[0];
    expect(http?.getConfig()).toMatchObject({ disableIncomingRequestInstrumentation: true });
    expect(made({ httpServerSpans: "instrumentation" })[0]?.getConfig()).toMatchObject({
      disableIncomingRequestInstrumentation: false,
    });
  });
});
