import { randomBytes } from "node:crypto";
import { type Bus, connectBus, type RpcHandlerMap, type Subscription } from "@dormant/bus";
import {
  type ApiKeySummary,
  AppError,
  GATEWAY_RPC_CATALOG,
  type GatewayAccount,
  PLATFORM_TOPOLOGY,
  SANDBOX_ANY_OTHER_COMPANY,
  SANDBOX_COMPANIES,
  SANDBOX_FILING_ID_PATTERN,
  type SandboxCompany,
  type SandboxFiling,
  type SandboxOverview,
  type SandboxScenarioRow,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";

/**
 * A stand-in for the gateway's side of gateway.rpc (another team's service), on the real bus of a
 * test vhost: accounts and keys in memory, with the contract's rules (idempotent create per
 * request_id, NOT_FOUND for another account's key, keys only once API access is on).
 */
export interface StandInGateway {
  accounts: Map<string, GatewayAccount>;
  keys: Map<string, ApiKeySummary & { account_id: string }>;
  /** How many calls of each RPC type were answered. */
  calls: Map<string, number>;
  /** Adds an account directly (as `admin create-account` would). */
  addAccount(name: string, apiAccess?: boolean): GatewayAccount;
  /** Stops answering (the gateway is down). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** The shared sandbox table (`@dormant/contracts`), as the gateway's sandbox_overview lists it. */
export const STAND_IN_SANDBOX_SCENARIOS: readonly SandboxScenarioRow[] = [
  ...Object.entries(SANDBOX_COMPANIES).map(([companyNumber, row]) => ({
    company_number: companyNumber as string | null,
    ...scenarioRow(row),
  })),
  { company_number: null, ...scenarioRow(SANDBOX_ANY_OTHER_COMPANY) },
];

function scenarioRow(row: SandboxCompany): Omit<SandboxScenarioRow, "company_number"> {
  return { jurisdiction: row.jurisdiction, outcome: row.outcome, reason: row.reason };
}

const STAND_IN_SANDBOX_LIST: SandboxOverview["list"] = {
  filings: [],
  pagination: { total: 0, limit: 50, offset: 0, has_more: false },
  sandbox: true,
  message: "Sandbox filings are stateless and are not stored, so this list is always empty.",
};

/** What polling a sandbox filing id answers, from the stand-in's table; undefined for anything else. */
function standInSandboxFiling(filingId: string): SandboxFiling | undefined {
  const match = SANDBOX_FILING_ID_PATTERN.exec(filingId);
  if (!match) return undefined;
  const [, type, companyNumber, hash] = match as unknown as [string, "ct600" | "accounts", string, string];
  const row = STAND_IN_SANDBOX_SCENARIOS.find((r) => r.company_number === companyNumber) ?? STAND_IN_SANDBOX_SCENARIOS.at(-1)!;
  const reference = (purpose: string) => `SANDBOX-${purpose}-${hash.toUpperCase()}`;
  return {
    filing_id: filingId,
    filing_type: type,
    company_number: companyNumber,
    status: row.outcome,
    sandbox: true,
    tax_status: row.outcome,
    tax_correlation_id: reference("CORR"),
    ...(row.outcome === "accepted" ? { tax_iru_number: reference("IRU") } : {}),
    ...(type === "accounts" ? { registry_status: row.outcome, registry_submission_number: reference("SUB") } : {}),
    ...(row.outcome === "rejected" ? { error: { code: "TAX_UTR_MISMATCH" as const, message: `${row.reason} (sandbox)` } } : {}),
    ...(row.outcome === "error" ? { error: { code: "GATEWAY_TIMEOUT" as const, message: `${row.reason} (sandbox)` } } : {}),
  };
}

const id = (prefix: string) => `${prefix}${randomBytes(9).toString("hex")}`;

export async function startStandInGateway(amqpUrl: string): Promise<StandInGateway> {
  const accounts = new Map<string, GatewayAccount>();
  const byRequest = new Map<string, string>();
  const keys = new Map<string, ApiKeySummary & { account_id: string }>();
  const calls = new Map<string, number>();
  const count = (type: string) => calls.set(type, (calls.get(type) ?? 0) + 1);
  const notFound = () => new AppError("NOT_FOUND", "no such account or key");
  const accountOf = (accountId: string) => {
    const account = accounts.get(accountId);
    if (!account) throw notFound();
    return account;
  };
  const addAccount = (name: string, apiAccess = false): GatewayAccount => {
    const account = { account_id: id("acc_"), name, api_access_enabled: apiAccess, created_at: new Date().toISOString() };
    accounts.set(account.account_id, account);
    return account;
  };
  const summary = ({ account_id: _, ...key }: ApiKeySummary & { account_id: string }): ApiKeySummary => key;
  const handlers: RpcHandlerMap<typeof GATEWAY_RPC_CATALOG, "gateway.rpc"> = {
    "gateway.create_account": async (payload) => {
      count("gateway.create_account");
      const known = byRequest.get(payload.request_id);
      if (known) return accountOf(known);
      const account = addAccount(payload.name);
      byRequest.set(payload.request_id, account.account_id);
      return account;
    },
    "gateway.get_account": async (payload) => {
      count("gateway.get_account");
      return accountOf(payload.account_id);
    },
    "gateway.enable_api_access": async (payload) => {
      count("gateway.enable_api_access");
      const account = { ...accountOf(payload.account_id), api_access_enabled: true };
      accounts.set(account.account_id, account);
      return account;
    },
    "gateway.list_keys": async (payload) => {
      count("gateway.list_keys");
      accountOf(payload.account_id);
      return { keys: [...keys.values()].filter((key) => key.account_id === payload.account_id).map(summary) };
    },
    "gateway.create_key": async (payload) => {
      count("gateway.create_key");
      if (!accountOf(payload.account_id).api_access_enabled)
        throw new AppError("VALIDATION_ERROR", "API access is not enabled", {
          details: [{ field: "account_id", message: "API access is off" }],
        });
      const keyId = id("key_");
      const key = {
        account_id: payload.account_id,
        key_id: keyId,
        mode: payload.mode,
        name: payload.name,
        prefix: `dk_${payload.mode}_${keyId.slice(4, 12)}`,
        created_at: new Date().toISOString(),
        last_used_at: null,
        revoked_at: null,
      };
      keys.set(keyId, key);
      return { key: summary(key), secret: `dk_${payload.mode}_${keyId.slice(4, 12)}_${randomBytes(24).toString("base64url")}` };
    },
    "gateway.revoke_key": async (payload) => {
      count("gateway.revoke_key");
      const key = keys.get(payload.key_id);
      if (!key || key.account_id !== payload.account_id) throw notFound();
      const revoked = { ...key, revoked_at: key.revoked_at ?? new Date().toISOString() };
      keys.set(key.key_id, revoked);
      return summary(revoked);
    },
    "gateway.sandbox_filing": async (payload) => {
      count("gateway.sandbox_filing");
      accountOf(payload.account_id);
      const filing = standInSandboxFiling(payload.filing_id);
      if (!filing) throw new AppError("NOT_FOUND", "not a sandbox filing id");
      return filing;
    },
    "gateway.sandbox_overview": async (payload) => {
      count("gateway.sandbox_overview");
      accountOf(payload.account_id);
      return { list: STAND_IN_SANDBOX_LIST, scenarios: [...STAND_IN_SANDBOX_SCENARIOS] };
    },
  };

  const bus: Bus<Record<string, never>, typeof GATEWAY_RPC_CATALOG> = await connectBus({
    url: amqpUrl,
    service: "gateway-stand-in",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: GATEWAY_RPC_CATALOG,
    logger: createLogger({ service: "gateway-stand-in", level: "silent" }),
  });
  let serving: Subscription | null = await bus.rpcServe("gateway.rpc", handlers);
  return {
    accounts,
    keys,
    calls,
    addAccount,
    pause: async () => {
      await serving?.stop();
      serving = null;
    },
    resume: async () => {
      serving ??= await bus.rpcServe("gateway.rpc", handlers);
    },
    close: async () => {
      await serving?.stop();
      await bus.close();
    },
  };
}
