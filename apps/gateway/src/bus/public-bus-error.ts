import { AppError } from "@dormant/contracts";
import { BusError, type BusFailure } from "@dormant/bus";

/** Retry-After for each way a service can be out of reach. */
const RETRY_AFTER_SECONDS: Partial<Record<BusFailure, number>> = {
  rpc_no_server: 30,
  rpc_timeout: 5,
  rpc_connection_lost: 5,
  bus_unavailable: 5,
  bus_closed: 5,
  publish_nacked: 5,
};

/**
 * A service out of reach (nobody serves its RPC queue, no reply in time, broker down) is a
 * retryable 503 SERVICE_UNAVAILABLE with Retry-After; the bus's own wording (queue names) stays
 * in the log. Errors the service answered with (FILING_NOT_FOUND, INSUFFICIENT_BALANCE,
 * TAX_UNAVAILABLE, WEBHOOK_ENDPOINT_NOT_FOUND, ...) pass through unchanged. `service` names it
 * in the message ("filing service", "webhook service", "billing service"). Every RPC client of
 * the gateway translates its failures with it (`rpcClient(bus, catalog, translate)`).
 */
export function publicBusError(error: unknown, service: string): unknown {
  if (!(error instanceof BusError)) return error;
  const retryAfterSeconds = RETRY_AFTER_SECONDS[error.reason];
  if (retryAfterSeconds === undefined) return new AppError("INTERNAL_ERROR", "Internal error", { cause: error });
  return new AppError("SERVICE_UNAVAILABLE", `The ${service} is temporarily unavailable; retry in ${retryAfterSeconds} seconds`, {
    cause: error,
    retryAfterSeconds,
  });
}

/**
 * A translation for a call whose every bus failure is one fixed 503 (`message`, Retry-After
 * `retryAfterSeconds`) rather than publicBusError's per-failure wording: the balance read and
 * account creation, whose callers retry the same request.
 */
export function busErrorAsUnavailable(message: string, retryAfterSeconds: number): (error: unknown) => unknown {
  return (error) => (error instanceof BusError ? new AppError("SERVICE_UNAVAILABLE", message, { cause: error, retryAfterSeconds }) : error);
}
