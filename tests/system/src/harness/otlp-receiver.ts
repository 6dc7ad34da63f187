import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as an app exported it (OTLP/HTTP JSON), flattened. */
export interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes?: OtlpAttribute[] }[];
    }[];
  }[];
}

function attributes(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    list.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]),
  );
}

/**
 * A collector for tests: an OTLP/HTTP receiver (JSON encoding, `OTEL_EXPORTER_OTLP_PROTOCOL=
 * http/json`) on a free local port that keeps every span the apps send it in memory.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      try {
        this.receive(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpRequest);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } catch {
        res.writeHead(400).end();
      }
    });
  });

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The environment that points an app's exporter here, with short batches. */
  exporterEnv(): Record<string, string> {
    return { OTEL_EXPORTER_OTLP_ENDPOINT: this.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "200" };
  }

  /** Every span of one trace received so far. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(body: OtlpRequest): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributes(resourceSpans.resource?.attributes)["service.name"] ?? "");
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service,
            scope: scopeSpans.scope?.name ?? "",
            name: span.name,
            kind: span.kind,
            traceId: span.traceId,
            spanId: span.spanId,
            ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
            attributes: attributes(span.attributes),
          });
        }
      }
    }
  }
}
