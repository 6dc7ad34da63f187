import { z } from "zod";

/**
 * What every bus message carries besides its payload. It travels in the AMQP headers (and is
 * mirrored into the AMQP properties messageId, type and timestamp), so tools that read headers
 * only (management UI, shovels, the dead-letter replay) see it without parsing the body.
 */

/** W3C trace context `traceparent`, version 00: trace-id and parent-id, neither all zeros. */
export const Traceparent = z
  .string()
  .regex(/^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/, "must be a W3C traceparent (version 00)");
export type Traceparent = z.infer<typeof Traceparent>;

/** Message type names: dotted lower-case words, e.g. `filing.accepted`, `tax.poll`. */
export const MessageTypeName = z.string().regex(/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/, "must be dotted lower-case words");

export const BusMessageMetadata = z.object({
  /** Unique per logical message; a republish of the same message (outbox relay, retry) keeps it. */
  message_id: z.uuid(),
  type: MessageTypeName,
  /** The payload schema version the producer wrote; consumers accept only the version they know. */
  schema_version: z.int().positive(),
  occurred_at: z.iso.datetime({ offset: true }),
  /** The API request that caused the message (or the first message of a chain without one). */
  request_id: z.string().min(1).max(200),
  traceparent: Traceparent,
  tracestate: z.string().max(512).optional(),
});
export type BusMessageMetadata = z.infer<typeof BusMessageMetadata>;

/** A message as a consumer sees it once decoded: its metadata and its validated payload. */
export type BusEnvelope<P> = BusMessageMetadata & { payload: P };
