import { AppError, BUS_HEADERS, type RpcReply } from "@dormant/contracts";
import { runWithRequestContext, type Logger } from "@dormant/service-kit";
import type { RpcCatalog, RpcHandler } from "./catalog/rpc-catalog.ts";
import type { Delivery } from "./delivery-loop.ts";
import { decodeBody, describeIssues, encodeBody, readMetadata } from "./envelope.ts";
import { BusError } from "./errors.ts";
import { inHandlerSpan } from "./trace-context.ts";
import { withTimeout } from "./with-timeout.ts";

export interface RpcServerOptions {
  queue: string;
  catalog: RpcCatalog;
  handlers: Readonly<Record<string, RpcHandler<never, unknown>>>;
  service: string;
  logger: Logger;
}

function failure(message: string): AppError {
  return new AppError("INTERNAL_ERROR", message, { retryable: false });
}

/** The error a caller is allowed to see: AppErrors as they are, anything else without its text. */
function replyError(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError("INTERNAL_ERROR", "internal error");
}

/**
 * Serves one RPC delivery: validates metadata and request (zod) before anything else, skips
 * requests whose caller has stopped waiting, runs the handler inside the caller's request
 * context (request_id) and a span continuing its trace, with the remaining time as its timeout, and replies with the
 * result (checked against the response schema) or a serialised AppError. Acks after replying.
 */
export function rpcDeliveryHandler(options: RpcServerOptions): (delivery: Delivery) => Promise<void> {
  const { queue, catalog, handlers, service, logger } = options;

  return async (delivery) => {
    const { message } = delivery;
    const replyTo = message.properties.replyTo as string | undefined;
    const correlationId = message.properties.correlationId as string | undefined;
    if (!replyTo || !correlationId) {
      logger.warn({ queue }, "rpc request without replyTo/correlationId dropped");
      delivery.ack();
      return;
    }
    const answer = (body: RpcReply) => {
      // The caller may be gone (its reply-to then no longer exists): the broker drops the reply.
      delivery.send(replyTo, encodeBody(body), { correlationId, contentType: "application/json", appId: service, persistent: false });
      delivery.ack();
    };
    const fail = (error: AppError) => answer({ ok: false, error: error.toJSON() });

    const read = readMetadata(message);
    if (!read.ok) return fail(failure(read.problem));
    const { metadata } = read;
    const definition = catalog[metadata.type];
    const handler = handlers[metadata.type];
    if (!definition || !handler) return fail(failure(`nothing serves "${metadata.type}" on ${queue}`));
    if (metadata.schema_version !== definition.schemaVersion) {
      return fail(failure(`${metadata.type}: schema_version ${metadata.schema_version}; this server reads ${definition.schemaVersion}`));
    }
    const deadlineHeader = (message.properties.headers as Record<string, unknown> | undefined)?.[BUS_HEADERS.rpcDeadline];
    const deadline = typeof deadlineHeader === "number" ? deadlineHeader : Date.now() + definition.timeoutMs;
    const remaining = Math.min(deadline - Date.now(), definition.timeoutMs);
    if (remaining <= 0) {
      logger.info({ queue, type: metadata.type, message_id: metadata.message_id }, "rpc request expired before it was served");
      delivery.ack();
      return;
    }
    const body = decodeBody(message);
    if (!body.ok) return fail(failure(`${metadata.type}: ${body.problem}`));
    const request = definition.request.safeParse(body.value);
    if (!request.success) {
      const details = request.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message }));
      return fail(
        new AppError("INTERNAL_ERROR", `${metadata.type}: invalid request: ${describeIssues(request.error.issues)}`, {
          retryable: false,
          details,
        }),
      );
    }

    try {
      const result = await runWithRequestContext({ requestId: metadata.request_id }, () =>
        inHandlerSpan(metadata, "server", queue, () =>
          withTimeout(
            (signal) => handler(request.data as never, { queue, type: metadata.type, signal, requestId: metadata.request_id }),
            remaining,
            () => new BusError("handler_timeout", `${metadata.type} handler took longer than ${remaining} ms`),
          ),
        ),
      );
      const response = definition.response.safeParse(result);
      if (!response.success) {
        logger.error(
          { queue, type: metadata.type, problems: describeIssues(response.error.issues) },
          "rpc handler returned an invalid response",
        );
        return fail(failure(`${metadata.type}: the server produced an invalid response`));
      }
      answer({ ok: true, result: response.data });
    } catch (error) {
      if (!(error instanceof AppError)) logger.error({ err: error, queue, type: metadata.type }, "rpc handler failed");
      fail(replyError(error));
    }
  };
}
