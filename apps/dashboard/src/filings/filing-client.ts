import { randomUUID } from "node:crypto";
import type { Bus } from "@dormant/bus";
import {
  AppError,
  FILING_RPC_CATALOG,
  FILING_RPC_QUEUE,
  type Filing,
  type FilingsList,
  type ListFilingsCriteria,
} from "@dormant/contracts";

/** The filing RPCs the dashboard calls (reads only; a stand-in serves exactly these). */
export const DASHBOARD_FILING_RPC_CATALOG = {
  "filing.list": FILING_RPC_CATALOG["filing.list"],
  "filing.get": FILING_RPC_CATALOG["filing.get"],
} as const;

/** The filing service is unreachable (no server, time-out, broker down): the page answers 503. */
export class FilingsUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the filing service did not answer", { cause });
    this.name = "FilingsUnavailableError";
  }
}

export type FilingBus = Pick<Bus<Record<string, never>, typeof DASHBOARD_FILING_RPC_CATALOG>, "rpcCall">;

/** Whose filings: filing.list and filing.get are scoped to one API key of the account (live only here). */
export interface FilingOwner {
  accountId: string;
  keyId: string;
}

/** The account's live filings, through the filing service's RPCs on filing.rpc (never its tables). */
export class FilingClient {
  constructor(private readonly bus: FilingBus) {}

  private caller(owner: FilingOwner) {
    return { account_id: owner.accountId, key_id: owner.keyId, mode: "live" as const, request_id: `dash_${randomUUID()}` };
  }

  async list(owner: FilingOwner, criteria: ListFilingsCriteria): Promise<FilingsList> {
    try {
      return await this.bus.rpcCall(FILING_RPC_QUEUE, "filing.list", { caller: this.caller(owner), criteria });
    } catch (error) {
      throw new FilingsUnavailableError(error);
    }
  }

  /** Null when the filing is unknown or another key's (the filing service never tells them apart). */
  async get(owner: FilingOwner, filingId: string): Promise<Filing | null> {
    try {
      return await this.bus.rpcCall(FILING_RPC_QUEUE, "filing.get", { caller: this.caller(owner), filing_id: filingId });
    } catch (error) {
      if (error instanceof AppError && (error.code === "FILING_NOT_FOUND" || error.code === "VALIDATION_ERROR")) return null;
      throw new FilingsUnavailableError(error);
    }
  }
}
