import { connectBus, RpcNoServerError, RpcTimeoutError, rpcClient } from "@dormant/bus";
import { AppError, FILING_RECONCILE_RPC_CATALOG, FILING_RPC_QUEUE, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, type Logger } from "@dormant/service-kit";
import type { ListFinalFilings } from "../ledger/filings-cross-check.ts";

export interface FilingServiceOptions {
  /** How long one page may take (default: the RPC's, FILING_RECONCILE_RPC_CATALOG). */
  timeoutMs?: number;
  /** The bus's own logger (default: silent; the errors that matter are thrown, and stdout is the CLI's JSON). */
  logger?: Logger;
}

/** The broker as an operator may be shown it: no credentials. */
export function brokerWhere(amqpUrl: string): string {
  const url = new URL(amqpUrl);
  return `${url.protocol}//${url.host}${url.pathname || "/"}`;
}

const TIMEOUT_MS = FILING_RECONCILE_RPC_CATALOG["filing.list_final"].timeoutMs;

/**
 * Connects to the broker at `amqpUrl` as a caller of the filing service's `filing.list_final`,
 * runs `fn` with it and disconnects. A filing service that does not answer is an AppError
 * `SERVICE_UNAVAILABLE` saying so (no reply in time, or nothing serves filing.rpc), as is a
 * broker that cannot be reached.
 */
export async function withFilingService<T>(
  amqpUrl: string,
  fn: (listFinal: ListFinalFilings) => Promise<T>,
  options: FilingServiceOptions = {},
): Promise<T> {
  const where = brokerWhere(amqpUrl);
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const logger = options.logger ?? createLogger({ service: "billing-admin", level: "silent" });
  const bus = await connectBus({
    url: amqpUrl,
    service: "billing-admin",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: FILING_RECONCILE_RPC_CATALOG,
    logger,
  }).catch((error: unknown) => {
    throw new AppError("SERVICE_UNAVAILABLE", `cannot connect to RabbitMQ at ${where} (AMQP_URL): ${(error as Error).message}`, {
      cause: error,
    });
  });
  const call = rpcClient(bus, FILING_RECONCILE_RPC_CATALOG, (error) => {
    if (error instanceof RpcTimeoutError) {
      return new AppError(
        "SERVICE_UNAVAILABLE",
        `the filing service did not answer filing.list_final within ${timeoutMs / 1000} s on ${where}: is it running and well?`,
        { cause: error },
      );
    }
    if (error instanceof RpcNoServerError) {
      return new AppError(
        "SERVICE_UNAVAILABLE",
        `nothing serves ${FILING_RPC_QUEUE} on ${where}: the filing service is not running there (check AMQP_URL)`,
        { cause: error },
      );
    }
    return error;
  });
  const listFinal: ListFinalFilings = (request) => call("filing.list_final", request, { timeoutMs });
  try {
    return await fn(listFinal);
  } finally {
    // A failure to close must not hide the cross-check's own answer or error.
    await bus.close().catch(() => undefined);
  }
}
