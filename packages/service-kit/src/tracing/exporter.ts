import { OTLPTraceExporter as OtlpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { SpanExporter } from "@opentelemetry/sdk-trace";

/**
 * The OTLP/HTTP exporter the standard variables ask for, or none: spans leave the process only
 * when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. The protocol
 * is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL: `http/protobuf` (the
 * default) or `http/json`. The exporters read headers, timeout and compression from the
 * standard variables themselves.
 */
export function exporterFromEnv(env: NodeJS.ProcessEnv = process.env): SpanExporter | undefined {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || (base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (!url) return undefined;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf").trim();
  if (protocol === "http/json") return new OtlpJsonExporter({ url });
  if (protocol === "http/protobuf") return new OtlpProtobufExporter({ url });
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL "${protocol}" is not supported (http/protobuf or http/json)`);
}
