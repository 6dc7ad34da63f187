import { AppError, type ErrorCode, type ErrorDetail } from "@dormant/contracts";

/**
 * Failures of the bus itself, as AppErrors so that they cross RPC boundaries and reach the
 * gateway's HTTP mapping unchanged. `reason` says precisely what happened; `code` is what the
 * outside world sees (SERVICE_UNAVAILABLE = try again, INTERNAL_ERROR = a bug).
 */
export type BusFailure =
  | "rpc_timeout"
  | "rpc_no_server"
  | "rpc_connection_lost"
  | "bus_unavailable"
  | "bus_closed"
  | "publish_nacked"
  | "unroutable"
  | "invalid_message"
  | "handler_timeout";

const CLASSIFICATION: Record<BusFailure, { code: ErrorCode; retryable: boolean }> = {
  rpc_timeout: { code: "SERVICE_UNAVAILABLE", retryable: true },
  rpc_no_server: { code: "SERVICE_UNAVAILABLE", retryable: true },
  rpc_connection_lost: { code: "SERVICE_UNAVAILABLE", retryable: true },
  bus_unavailable: { code: "SERVICE_UNAVAILABLE", retryable: true },
  bus_closed: { code: "SERVICE_UNAVAILABLE", retryable: true },
  publish_nacked: { code: "SERVICE_UNAVAILABLE", retryable: true },
  unroutable: { code: "INTERNAL_ERROR", retryable: false },
  invalid_message: { code: "INTERNAL_ERROR", retryable: false },
  handler_timeout: { code: "INTERNAL_ERROR", retryable: true },
};

export class BusError extends AppError {
  readonly reason: BusFailure;

  constructor(reason: BusFailure, message: string, options: { details?: ErrorDetail[]; cause?: unknown } = {}) {
    const { code, retryable } = CLASSIFICATION[reason];
    super(code, message, { ...options, retryable });
    this.name = "BusError";
    this.reason = reason;
  }
}

/** The RPC server did not answer within the timeout (it may still do the work: retry idempotently). */
export class RpcTimeoutError extends BusError {
  constructor(type: string, timeoutMs: number) {
    super("rpc_timeout", `${type}: no reply within ${timeoutMs} ms`);
    this.name = "RpcTimeoutError";
  }
}

/** Nobody serves the RPC queue: the broker returned the request at once. */
export class RpcNoServerError extends BusError {
  constructor(type: string, queue: string) {
    super("rpc_no_server", `${type}: nothing serves ${queue}`);
    this.name = "RpcNoServerError";
  }
}

/** The connection (or channel) carrying the call was lost before the reply came. */
export class RpcConnectionLostError extends BusError {
  constructor(type: string) {
    super("rpc_connection_lost", `${type}: the broker connection was lost before the reply`);
    this.name = "RpcConnectionLostError";
  }
}

/** Not connected, or no broker confirm, within the allowed time: the message may not be stored. */
export class BusUnavailableError extends BusError {
  constructor(what: string, waitedMs: number) {
    super("bus_unavailable", `${what}: the broker did not confirm within ${waitedMs} ms`);
    this.name = "BusUnavailableError";
  }
}

/** Whether a thrown value asks to be retried: an explicit `retryable` flag wins, else yes. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof AppError) return error.retryable;
  if (typeof error === "object" && error !== null && "retryable" in error && typeof error.retryable === "boolean") {
    return error.retryable;
  }
  return true;
}

/** The error code to record for a failure (AppError code, else INTERNAL_ERROR). */
export function errorCodeOf(error: unknown): string {
  return error instanceof AppError ? error.code : "INTERNAL_ERROR";
}

/** A short, single-line message for headers and logs. */
export function errorMessageOf(error: unknown, max = 500): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").slice(0, max);
}
