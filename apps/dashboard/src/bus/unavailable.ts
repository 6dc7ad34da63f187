import { AppError } from "@dormant/contracts";

/** The services whose RPCs the dashboard calls. */
export type DashboardPeer = "gateway" | "billing" | "filing service" | "notifier";

/**
 * A service the dashboard asked did not answer (nobody serving its queue, no reply in time, the
 * broker or its database down): every page answers it the same way, the 503 page with
 * Retry-After (src/app.ts), nothing done.
 */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly service: DashboardPeer,
    cause: unknown,
  ) {
    super(`the ${service} did not answer`, { cause });
    this.name = "ServiceUnavailableError";
  }
}

/**
 * The translation of a failed call for `rpcClient`: the service's own refusals with one of
 * `passCodes` are thrown as they came (the page answers them), `mapped` codes become the error
 * given, and anything else is the service out of reach.
 */
export function dashboardRpcErrors(
  service: DashboardPeer,
  { passCodes = [], mapped = {} }: { passCodes?: readonly string[]; mapped?: Readonly<Record<string, () => Error>> } = {},
): (error: unknown) => unknown {
  return (error) => {
    if (error instanceof AppError) {
      const replacement = mapped[error.code];
      if (replacement) return replacement();
      if (passCodes.includes(error.code)) return error;
    }
    return new ServiceUnavailableError(service, error);
  };
}
