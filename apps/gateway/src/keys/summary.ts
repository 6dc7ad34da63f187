import type { ApiKeySummary } from "@dormant/contracts";
import type { ApiKeyMode } from "./format.ts";

/** The columns a key's summary needs: never the secret hash. */
export const API_KEY_SUMMARY_SELECT = {
  keyId: true,
  mode: true,
  name: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export interface ApiKeySummaryRow {
  keyId: string;
  mode: ApiKeyMode;
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The key's public start, `api_{mode}_{key_id}`: what its owner recognises in a config file, no secret. */
export function apiKeyPrefix(mode: ApiKeyMode, keyId: string): string {
  return `api_${mode}_${keyId}`;
}

/** A key as its owner may see it (gateway.list_keys and friends). */
export function toApiKeySummary(row: ApiKeySummaryRow): ApiKeySummary {
  return {
    key_id: row.keyId,
    mode: row.mode,
    name: row.name,
    prefix: apiKeyPrefix(row.mode, row.keyId),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}
