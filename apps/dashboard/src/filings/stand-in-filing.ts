import { type Bus, connectBus, type RpcHandlerMap, type Subscription } from "@dormant/bus";
import { AppError, type Filing, type FilingRpcCaller, type FilingSummary, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { DASHBOARD_FILING_RPC_CATALOG } from "./filing-client.ts";

/**
 * A stand-in for the filing service's side of filing.rpc (another team's service), for tests
 * only, on the real bus of a test vhost: filings in memory per key, newest first, filtered and
 * paged like the filing service (which scopes every read to the caller's key).
 */
export interface StandInFiling {
  /** Filings by key id, newest first. */
  filings: Map<string, Filing[]>;
  /** Every request answered, in order. */
  requests: { type: string; caller: FilingRpcCaller; payload: unknown }[];
  close(): Promise<void>;
}

function summary(f: Filing): FilingSummary {
  return {
    filing_id: f.filing_id,
    filing_type: f.filing_type,
    company_number: f.company_number,
    company_name: f.company_name,
    period_end: f.period.end,
    status: f.status,
    ...(f.client_reference ? { client_reference: f.client_reference } : {}),
    created_at: f.created_at,
  };
}

export async function startStandInFiling(amqpUrl: string): Promise<StandInFiling> {
  const filings = new Map<string, Filing[]>();
  const requests: StandInFiling["requests"] = [];
  const handlers: RpcHandlerMap<typeof DASHBOARD_FILING_RPC_CATALOG, "filing.rpc"> = {
    "filing.list": async (payload) => {
      requests.push({ type: "filing.list", caller: payload.caller, payload });
      const c = payload.criteria;
      const all = (filings.get(payload.caller.key_id) ?? []).filter(
        (f) =>
          (!c.status || f.status === c.status) &&
          (!c.type || f.filing_type === c.type) &&
          (!c.company_number || f.company_number === c.company_number) &&
          (!c.client_reference || f.client_reference === c.client_reference),
      );
      const page = all.slice(c.offset, c.offset + c.limit).map(summary);
      return {
        filings: page,
        pagination: { total: all.length, limit: c.limit, offset: c.offset, has_more: c.offset + page.length < all.length },
      };
    },
    "filing.get": async (payload) => {
      requests.push({ type: "filing.get", caller: payload.caller, payload });
      const found = (filings.get(payload.caller.key_id) ?? []).find((f) => f.filing_id === payload.filing_id);
      if (!found) throw new AppError("FILING_NOT_FOUND", "No filing with this id for this API key");
      return found;
    },
  };
  const bus: Bus<Record<string, never>, typeof DASHBOARD_FILING_RPC_CATALOG> = await connectBus({
    url: amqpUrl,
    service: "filing-stand-in",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: DASHBOARD_FILING_RPC_CATALOG,
    logger: createLogger({ service: "filing-stand-in", level: "silent" }),
  });
  const serving: Subscription = await bus.rpcServe("filing.rpc", handlers);
  return {
    filings,
    requests,
    close: async () => {
      await serving.stop().catch(() => undefined);
      await bus.close();
    },
  };
}
