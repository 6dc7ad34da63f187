import { connectBus, type Bus, type Subscription } from "@dormant/bus";
import {
  FILING_RECONCILE_RPC_CATALOG,
  type FinalFiling,
  type ListFinalFilingsRequest,
  type ListFinalFilingsResponse,
  PLATFORM_TOPOLOGY,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";

/**
 * Test support: a stand-in for the filing service's `filing.list_final` on a real RabbitMQ vhost
 * (billing cannot run the real filing service in its tests: the filing service's tests run
 * billing). It answers from `filings`, as the contract says the filing service does: the window
 * [since, until), the order (finalized_at, filing id byte by byte), keyset pages after `after`.
 * The gateway's admin CLI test runs the real filing service instead.
 */
export interface FilingServiceStandIn {
  /** What the filing service says: add filings to it, in any order. */
  readonly filings: FinalFiling[];
  /** Every request served, in order. */
  readonly requests: ListFinalFilingsRequest[];
  /** Delay before each answer, to make the caller time out. */
  delayMs: number;
  stop(): Promise<void>;
}

const silent = createLogger({ service: "filing-stand-in", level: "silent" });

function byPosition(a: { finalized_at: string; filing_id: string }, b: { finalized_at: string; filing_id: string }): number {
  const time = Date.parse(a.finalized_at) - Date.parse(b.finalized_at);
  if (time !== 0) return time;
  return a.filing_id < b.filing_id ? -1 : a.filing_id > b.filing_id ? 1 : 0;
}

/** The page the contract describes, from a list of final filings. */
export function finalFilingsPage(filings: readonly FinalFiling[], request: ListFinalFilingsRequest): ListFinalFilingsResponse {
  const since = Date.parse(request.since);
  const until = Date.parse(request.until);
  const after = request.after;
  const candidates = filings
    .filter((filing) => Date.parse(filing.finalized_at) >= since && Date.parse(filing.finalized_at) < until)
    .filter((filing) => !after || byPosition(filing, after) > 0)
    .sort(byPosition);
  const page = candidates.slice(0, request.limit);
  const last = page.at(-1);
  return candidates.length > request.limit && last
    ? { filings: page, next: { finalized_at: last.finalized_at, filing_id: last.filing_id } }
    : { filings: page };
}

export async function startFilingServiceStandIn(amqpUrl: string): Promise<FilingServiceStandIn> {
  const bus: Bus<Record<never, never>, typeof FILING_RECONCILE_RPC_CATALOG> = await connectBus({
    url: amqpUrl,
    service: "filing-stand-in",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: FILING_RECONCILE_RPC_CATALOG,
    logger: silent,
  });
  const standIn: FilingServiceStandIn = {
    filings: [],
    requests: [],
    delayMs: 0,
    stop: async () => {
      await serving.stop();
      await bus.close();
    },
  };
  const serving: Subscription = await bus.rpcServe("filing.rpc", {
    "filing.list_final": async (request) => {
      standIn.requests.push(request);
      if (standIn.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, standIn.delayMs));
      return finalFilingsPage(standIn.filings, request);
    },
  });
  return standIn;
}
