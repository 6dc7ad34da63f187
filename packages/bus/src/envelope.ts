import { randomUUID } from "node:crypto";
import { BUS_HEADERS, BusMessageMetadata } from "@dormant/contracts";
import { currentRequestContext } from "@dormant/service-kit";
import type { Message, Options } from "amqplib";
import { newMessageTraceHeaders } from "./trace-context.ts";

/** What a publisher may fix instead of letting the bus fill it in (an outbox relay keeps its ids). */
export interface MetadataOverrides {
  messageId?: string;
  occurredAt?: Date;
  requestId?: string;
  traceparent?: string;
  tracestate?: string;
}

/**
 * Metadata for a new message: request_id comes from the current request context
 * (runWithRequestContext) and the trace context from the active span (trace-context.ts), so
 * whatever a request or a handler publishes carries them along.
 */
export function newMetadata(type: string, schemaVersion: number, overrides: MetadataOverrides = {}): BusMessageMetadata {
  const context = currentRequestContext();
  const headers = overrides.traceparent
    ? { traceparent: overrides.traceparent, tracestate: overrides.tracestate }
    : newMessageTraceHeaders(type, { "messaging.message.id": overrides.messageId ?? "" });
  const messageId = overrides.messageId ?? randomUUID();
  const tracestate = headers.tracestate;
  return BusMessageMetadata.parse({
    message_id: messageId,
    type,
    schema_version: schemaVersion,
    occurred_at: (overrides.occurredAt ?? new Date()).toISOString(),
    request_id: overrides.requestId ?? context?.requestId ?? randomUUID(),
    traceparent: headers.traceparent,
    ...(tracestate ? { tracestate } : {}),
  });
}

/** AMQP properties of a message: metadata in headers, mirrored into the standard properties. */
export function messageProperties(
  metadata: BusMessageMetadata,
  appId: string,
  extraHeaders: Record<string, unknown> = {},
): Options.Publish {
  return {
    messageId: metadata.message_id,
    type: metadata.type,
    timestamp: Math.floor(Date.parse(metadata.occurred_at) / 1000),
    contentType: "application/json",
    contentEncoding: "utf-8",
    persistent: true,
    appId,
    headers: { ...metadata, [BUS_HEADERS.attempt]: 1, ...extraHeaders },
  };
}

export function encodeBody(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), "utf8");
}

/** The metadata carried by a delivered message, or why it cannot be read. */
export function readMetadata(message: Message): { ok: true; metadata: BusMessageMetadata } | { ok: false; problem: string } {
  const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
  const parsed = BusMessageMetadata.safeParse({
    message_id: headers.message_id,
    type: headers.type,
    schema_version: headers.schema_version,
    occurred_at: headers.occurred_at,
    request_id: headers.request_id,
    traceparent: headers.traceparent,
    tracestate: headers.tracestate,
  });
  if (parsed.success) return { ok: true, metadata: parsed.data };
  return { ok: false, problem: `invalid message headers: ${describeIssues(parsed.error.issues)}` };
}

/** The bus attempt counter of a delivered message (1 when absent). */
export function attemptOf(message: Message): number {
  const value = (message.properties.headers as Record<string, unknown> | undefined)?.[BUS_HEADERS.attempt];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 1;
}

/** Parses a JSON body, or says why it is not JSON. */
export function decodeBody(message: Message): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(message.content.toString("utf8")) as unknown };
  } catch {
    return { ok: false, problem: "body is not JSON" };
  }
}

/** "path: message; path: message" without the offending values (they may be secrets). */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 10)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}

/** Properties of a delivered message to republish it (retry, parking, replay) with new headers. */
export function republishProperties(message: Message, headers: Record<string, unknown>): Options.Publish {
  const { properties } = message;
  const kept = { ...(properties.headers as Record<string, unknown> | undefined) };
  delete kept["x-delivery-count"];
  return {
    messageId: properties.messageId as string | undefined,
    type: properties.type as string | undefined,
    timestamp: properties.timestamp as number | undefined,
    contentType: properties.contentType as string | undefined,
    contentEncoding: properties.contentEncoding as string | undefined,
    appId: properties.appId as string | undefined,
    persistent: true,
    headers: { ...kept, ...headers },
  };
}
