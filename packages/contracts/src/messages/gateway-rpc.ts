import { z } from "zod";
import { SandboxFiling, SandboxFilingsList, SandboxOutcome } from "../api/sandbox.ts";
import { CompanyNumber } from "../api/primitives.ts";

/**
 * The gateway's RPCs on `gateway.rpc`: the accounts and API keys it owns, for the account
 * dashboard (apps/dashboard), which never reads the gateway's tables. Errors are AppErrors:
 * NOT_FOUND for an unknown account or a key of another account (never told apart),
 * VALIDATION_ERROR with details for a request the schema lets through but the state refuses
 * (a key created before API access is enabled).
 */
export const GATEWAY_RPC_QUEUE = "gateway.rpc";

const AccountId = z.string().regex(/^acc_[A-Za-z0-9]{1,64}$/);
const KeyId = z.string().min(1).max(64);
const Timestamp = z.string().datetime({ offset: true });
export const ApiKeyModeSchema = z.enum(["live", "test"]);
/** A key's name, given by its owner ("CI server", "Claude Desktop"). */
export const ApiKeyName = z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters");

export const GatewayAccount = z.object({
  account_id: AccountId,
  name: z.string(),
  /** False until the owner enables it in the dashboard; accounts made by `admin create-account` have it. */
  api_access_enabled: z.boolean(),
  created_at: Timestamp,
});
export type GatewayAccount = z.infer<typeof GatewayAccount>;

/** A key as its owner may see it: never its secret or hash. */
export const ApiKeySummary = z.object({
  key_id: KeyId,
  mode: ApiKeyModeSchema,
  /** Null for keys made before keys had names (admin create-account's). */
  name: z.string().nullable(),
  /** The key's public start (`api_live_` + its key id), enough to recognise it in a config file. */
  prefix: z.string(),
  created_at: Timestamp,
  /** When it last authenticated a request, to the minute (updated at most once a minute); null: never. */
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

/**
 * `gateway.create_account`: a new account with no keys and API access off. Its billing side is
 * opened with a zero balance (`billing.open_account`) before the answer. Idempotent per
 * `request_id`: the same id answers the same account (a retried sign-up never opens two).
 */
export const CreateGatewayAccountRequest = z.object({ request_id: z.string().min(8).max(100), name: z.string().trim().min(1).max(200) });
export type CreateGatewayAccountRequest = z.infer<typeof CreateGatewayAccountRequest>;

export const GatewayAccountRequest = z.object({ account_id: AccountId });
export type GatewayAccountRequest = z.infer<typeof GatewayAccountRequest>;

export const ApiKeysList = z.object({ keys: z.array(ApiKeySummary) });
export type ApiKeysList = z.infer<typeof ApiKeysList>;

/** `gateway.create_key`: needs API access enabled. The secret is in this answer only. */
export const CreateApiKeyRequest = z.object({ account_id: AccountId, mode: ApiKeyModeSchema, name: ApiKeyName });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;
export const CreatedApiKey = z.object({ key: ApiKeySummary, secret: z.string().min(20) });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/**
 * `gateway.revoke_key`: idempotent (a revoked key answers as it is); every gateway refuses the key
 * within its key cache TTL (`API_KEY_CACHE_TTL_MS`, 5 s by default), at once where it was not cached.
 */
export const RevokeApiKeyRequest = z.object({ account_id: AccountId, key_id: KeyId });
export type RevokeApiKeyRequest = z.infer<typeof RevokeApiKeyRequest>;

/**
 * `gateway.sandbox_filing`: what polling a sandbox filing id answers a test key of the account
 * (`GET /filings/{id}` in sandbox mode: derived from the id, nothing stored). NOT_FOUND for an id
 * that is not a sandbox filing id.
 */
export const SandboxFilingRequest = z.object({ account_id: AccountId, filing_id: z.string().min(1).max(128) });
export type SandboxFilingRequest = z.infer<typeof SandboxFilingRequest>;

/** One row of the spec's sandbox table: the company number decides what a poll answers. */
export const SandboxScenarioRow = z.object({
  /** Null for the row that stands for every other company number. */
  company_number: CompanyNumber.nullable(),
  jurisdiction: z.string(),
  outcome: SandboxOutcome,
  reason: z.string(),
});
export type SandboxScenarioRow = z.infer<typeof SandboxScenarioRow>;

/**
 * `gateway.sandbox_overview`: what a test key's `GET /filings` answers (always the empty,
 * stateless list) and the sandbox table, for the dashboard's sandbox toggle.
 */
export const SandboxOverview = z.object({ list: SandboxFilingsList, scenarios: z.array(SandboxScenarioRow).min(1) });
export type SandboxOverview = z.infer<typeof SandboxOverview>;

const SECOND = 1000;

export const GATEWAY_RPC_CATALOG = {
  "gateway.create_account": {
    queue: GATEWAY_RPC_QUEUE,
    request: CreateGatewayAccountRequest,
    response: GatewayAccount,
    schemaVersion: 1,
    timeoutMs: 10 * SECOND,
  },
  "gateway.get_account": {
    queue: GATEWAY_RPC_QUEUE,
    request: GatewayAccountRequest,
    response: GatewayAccount,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  "gateway.enable_api_access": {
    queue: GATEWAY_RPC_QUEUE,
    request: GatewayAccountRequest,
    response: GatewayAccount,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  "gateway.list_keys": {
    queue: GATEWAY_RPC_QUEUE,
    request: GatewayAccountRequest,
    response: ApiKeysList,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  "gateway.create_key": {
    queue: GATEWAY_RPC_QUEUE,
    request: CreateApiKeyRequest,
    response: CreatedApiKey,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  "gateway.revoke_key": {
    queue: GATEWAY_RPC_QUEUE,
    request: RevokeApiKeyRequest,
    response: ApiKeySummary,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  "gateway.sandbox_filing": {
    queue: GATEWAY_RPC_QUEUE,
    request: SandboxFilingRequest,
    response: SandboxFiling,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
  "gateway.sandbox_overview": {
    queue: GATEWAY_RPC_QUEUE,
    request: GatewayAccountRequest,
    response: SandboxOverview,
    schemaVersion: 1,
    timeoutMs: 5 * SECOND,
  },
} as const;
