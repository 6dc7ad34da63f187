import { BUS_HEADERS, type BusMessageMetadata, type DeadLetterReason } from "@dormant/contracts";
import { runWithRequestContext, type Logger } from "@dormant/service-kit";
import type { MessageCatalog, MessageDefinition, MessageHandler } from "./catalog/message-catalog.ts";
import type { Delivery } from "./delivery-loop.ts";
import { attemptOf, decodeBody, describeIssues, readMetadata, republishProperties } from "./envelope.ts";
import { BusError, errorCodeOf, errorMessageOf, isRetryable } from "./errors.ts";
import type { BusMetrics } from "./metrics.ts";
import type { ConfirmPublisher } from "./publisher.ts";
import { retryWait } from "./retry-schedule.ts";
import { inHandlerSpan } from "./trace-context.ts";
import { deadLetterQueueName, waitQueueName } from "./topology/names.ts";
import { withTimeout } from "./with-timeout.ts";

export interface MessageConsumerOptions {
  queue: string;
  catalog: MessageCatalog;
  handlers: Readonly<Record<string, MessageHandler<never>>>;
  publisher: ConfirmPublisher;
  metrics: BusMetrics;
  logger: Logger;
}

interface Failure {
  reason: DeadLetterReason;
  code: string;
  message: string;
  retryable: boolean;
}

/**
 * What happens to one delivery on a work queue: metadata and payload are parsed against their
 * schemas before anything else (a message that fails is parked at once, never retried); the
 * handler runs inside the message's request context and a span continuing its trace, with a
 * timeout; success acks; a retryable
 * failure goes to the wait tier of its backoff (then back to the queue) until the policy's
 * attempts are used up; anything else is parked in the queue's dead-letter queue with the reason
 * in its headers. The retry or parking copy is confirmed before the original is acked; if that
 * publish fails the original is requeued, so nothing is lost either way.
 */
export function messageDeliveryHandler(options: MessageConsumerOptions): (delivery: Delivery) => Promise<void> {
  const { queue, catalog, handlers, publisher, metrics, logger } = options;

  const park = async (delivery: Delivery, type: string, attempt: number, failure: Failure) => {
    if (!delivery.channelOpen()) return;
    const headers = {
      [BUS_HEADERS.deadLetterReason]: failure.reason,
      [BUS_HEADERS.errorCode]: failure.code,
      [BUS_HEADERS.errorMessage]: failure.message,
      [BUS_HEADERS.errorRetryable]: failure.retryable,
      [BUS_HEADERS.failedAt]: new Date().toISOString(),
      [BUS_HEADERS.failedQueue]: queue,
      [BUS_HEADERS.attempt]: attempt,
    };
    const target = deadLetterQueueName(queue);
    await publisher.publish(
      { exchange: "", routingKey: target },
      delivery.message.content,
      republishProperties(delivery.message, headers),
      target,
    );
    delivery.ack();
    metrics.deadLettered.inc({ queue, type, reason: failure.reason });
    logger.warn(
      { queue, type, message_id: delivery.message.properties.messageId, attempt, ...failure },
      "message parked in the dead-letter queue",
    );
  };

  const retry = async (delivery: Delivery, definition: MessageDefinition, type: string, attempt: number, error: unknown) => {
    if (!delivery.channelOpen()) return;
    const { tierMs, expirationMs } = retryWait(definition.retry, attempt);
    const target = waitQueueName(queue, tierMs);
    const properties = republishProperties(delivery.message, {
      [BUS_HEADERS.attempt]: attempt + 1,
      [BUS_HEADERS.lastErrorCode]: errorCodeOf(error),
      [BUS_HEADERS.lastErrorMessage]: errorMessageOf(error),
    });
    await publisher.publish(
      { exchange: "", routingKey: target },
      delivery.message.content,
      { ...properties, expiration: String(expirationMs) },
      target,
    );
    delivery.ack();
    metrics.retried.inc({ queue, type });
    logger.info(
      { queue, type, message_id: delivery.message.properties.messageId, attempt, retry_in_ms: expirationMs },
      "message scheduled for another attempt",
    );
  };

  const run = async (
    delivery: Delivery,
    metadata: BusMessageMetadata,
    definition: MessageDefinition,
    handler: MessageHandler<never>,
    payload: unknown,
  ) => {
    const attempt = attemptOf(delivery.message);
    try {
      await runWithRequestContext({ requestId: metadata.request_id }, () =>
        inHandlerSpan(metadata, "consumer", queue, () =>
          withTimeout(
            (signal) =>
              handler({ ...metadata, payload } as never, { queue, attempt, redelivered: delivery.message.fields.redelivered, signal }),
            definition.timeoutMs,
            () => new BusError("handler_timeout", `${metadata.type} handler took longer than ${definition.timeoutMs} ms`),
          ),
        ),
      );
    } catch (error) {
      metrics.failed.inc({ queue, type: metadata.type });
      logger.warn({ err: error, queue, type: metadata.type, message_id: metadata.message_id, attempt }, "message handler failed");
      const retryable = isRetryable(error);
      if (retryable && attempt < definition.retry.maxAttempts) {
        await retry(delivery, definition, metadata.type, attempt, error);
        return;
      }
      await park(delivery, metadata.type, attempt, {
        reason: retryable ? "max_attempts" : "non_retryable",
        code: errorCodeOf(error),
        message: errorMessageOf(error),
        retryable,
      });
      return;
    }
    delivery.ack();
  };

  return async (delivery) => {
    const labelType = typeof delivery.message.properties.type === "string" ? delivery.message.properties.type : "unknown";
    metrics.consumed.inc({ queue, type: labelType });
    const attempt = attemptOf(delivery.message);
    const invalid = (reason: DeadLetterReason, message: string) =>
      park(delivery, labelType, attempt, { reason, code: "INVALID_MESSAGE", message, retryable: false });

    const read = readMetadata(delivery.message);
    if (!read.ok) return invalid("invalid_message", read.problem);
    const { metadata } = read;
    const definition = catalog[metadata.type];
    const handler = handlers[metadata.type];
    if (!definition || !handler) return invalid("unknown_type", `no handler for "${metadata.type}" on ${queue}`);
    if (metadata.schema_version !== definition.schemaVersion) {
      return invalid("invalid_message", `schema_version ${metadata.schema_version}; this consumer reads ${definition.schemaVersion}`);
    }
    const body = decodeBody(delivery.message);
    if (!body.ok) return invalid("invalid_message", body.problem);
    const parsed = definition.schema.safeParse(body.value);
    if (!parsed.success) return invalid("invalid_message", `invalid payload: ${describeIssues(parsed.error.issues)}`);
    return run(delivery, metadata, definition, handler, parsed.data);
  };
}
