import { randomUUID } from "node:crypto";
import type { Bus } from "@dormant/bus";
import {
  AppError,
  DOCUMENT_CHUNK_MAX_BYTES,
  type DocumentChunk,
  type DocumentsList,
  type DocumentType,
  FILING_ACCOUNT_RPC_CATALOG,
  FILING_RPC_QUEUE,
  type Filing,
  type FilingStatusHistory,
  type FilingsList,
  GATEWAY_RPC_CATALOG,
  GATEWAY_RPC_QUEUE,
  type ListFilingsCriteria,
  type SandboxFiling,
  type SandboxOverview,
} from "@dormant/contracts";

/**
 * The RPCs the Filings pages call (reads only; stand-ins serve exactly these): the filing
 * service's account-wide reads (the whole FILING_ACCOUNT_RPC_CATALOG: list, get, a filing's
 * status history, its documents), and the gateway's sandbox answers for the sandbox toggle.
 */
export const DASHBOARD_FILING_RPC_CATALOG = {
  ...FILING_ACCOUNT_RPC_CATALOG,
  "gateway.sandbox_filing": GATEWAY_RPC_CATALOG["gateway.sandbox_filing"],
  "gateway.sandbox_overview": GATEWAY_RPC_CATALOG["gateway.sandbox_overview"],
} as const;

/** The largest slice a download asks for at once (the contract's maximum, 1 MiB). */
export const DOWNLOAD_CHUNK_BYTES = DOCUMENT_CHUNK_MAX_BYTES;

/** The filing service (or the gateway) is unreachable (no server, time-out, broker down): the page answers 503. */
export class FilingsUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the filing service did not answer", { cause });
    this.name = "FilingsUnavailableError";
  }
}

export type FilingBus = Pick<Bus<Record<string, never>, typeof DASHBOARD_FILING_RPC_CATALOG>, "rpcCall">;

/** Which document of a filing: CT600 documents of a split filing have a part 2. */
export interface DocumentRef {
  filingId: string;
  type: DocumentType;
  part?: 1 | 2 | undefined;
}

/** Refusals that mean "no such filing or document for this account": the page answers 404. */
const NOT_THERE = new Set(["FILING_NOT_FOUND", "DOCUMENT_NOT_FOUND", "FILING_NOT_COMPLETE", "VALIDATION_ERROR", "NOT_FOUND"]);

function isNotThere(error: unknown): boolean {
  return error instanceof AppError && NOT_THERE.has(error.code);
}

/**
 * The account's filings, through the filing service's account-wide reads on filing.rpc (never its
 * tables): every live filing of the account, whichever of its keys made it. Another account's
 * filing is FILING_NOT_FOUND there, exactly as an unknown one. Sandbox answers come from the
 * gateway (sandbox filings are stateless, derived from the id).
 */
export class FilingClient {
  constructor(private readonly bus: FilingBus) {}

  private reader(accountId: string) {
    return { account_id: accountId, request_id: `dash_${randomUUID()}` };
  }

  async list(accountId: string, criteria: ListFilingsCriteria): Promise<FilingsList> {
    try {
      return await this.bus.rpcCall(FILING_RPC_QUEUE, "filing.account_list", { reader: this.reader(accountId), criteria });
    } catch (error) {
      throw new FilingsUnavailableError(error);
    }
  }

  /** Null when the filing is unknown or another account's (the filing service never tells them apart). */
  async get(accountId: string, filingId: string): Promise<Filing | null> {
    try {
      return await this.bus.rpcCall(FILING_RPC_QUEUE, "filing.account_get", { reader: this.reader(accountId), filing_id: filingId });
    } catch (error) {
      if (isNotThere(error)) return null;
      throw new FilingsUnavailableError(error);
    }
  }

  /**
   * The filing's status changes, oldest first; null when the filing is unknown or another
   * account's. The filing page shows it beside the filing and does without it should this fail.
   */
  async history(accountId: string, filingId: string): Promise<FilingStatusHistory | null> {
    try {
      return await this.bus.rpcCall(FILING_RPC_QUEUE, "filing.account_history", { reader: this.reader(accountId), filing_id: filingId });
    } catch (error) {
      if (isNotThere(error)) return null;
      throw new FilingsUnavailableError(error);
    }
  }

  /** The documents of an accepted filing; null when it has none to list (not accepted, unknown, another account's). */
  async listDocuments(accountId: string, filingId: string): Promise<DocumentsList | null> {
    try {
      return await this.bus.rpcCall(FILING_RPC_QUEUE, "filing.account_list_documents", {
        reader: this.reader(accountId),
        filing_id: filingId,
      });
    } catch (error) {
      if (isNotThere(error)) return null;
      throw new FilingsUnavailableError(error);
    }
  }

  /**
   * A slice of a document from `offset` (at most DOWNLOAD_CHUNK_BYTES); null when the document
   * is not the account's to read (unknown filing, another account's, no such type or part).
   */
  async documentChunk(accountId: string, ref: DocumentRef, offset: number, requestId: string): Promise<DocumentChunk | null> {
    try {
      return await this.bus.rpcCall(FILING_RPC_QUEUE, "filing.account_get_document_chunk", {
        reader: { account_id: accountId, request_id: requestId },
        filing_id: ref.filingId,
        document_type: ref.type,
        ...(ref.part === undefined ? {} : { part: ref.part }),
        offset,
        length: DOWNLOAD_CHUNK_BYTES,
      });
    } catch (error) {
      if (isNotThere(error)) return null;
      throw new FilingsUnavailableError(error);
    }
  }

  /** What a test key's GET /filings answers (always empty) and the sandbox table. */
  async sandboxOverview(accountId: string): Promise<SandboxOverview> {
    try {
      return await this.bus.rpcCall(GATEWAY_RPC_QUEUE, "gateway.sandbox_overview", { account_id: accountId });
    } catch (error) {
      throw new FilingsUnavailableError(error);
    }
  }

  /** What polling a sandbox filing id answers a test key; null when the id is not a sandbox filing id. */
  async sandboxFiling(accountId: string, filingId: string): Promise<SandboxFiling | null> {
    try {
      return await this.bus.rpcCall(GATEWAY_RPC_QUEUE, "gateway.sandbox_filing", { account_id: accountId, filing_id: filingId });
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND") return null;
      throw new FilingsUnavailableError(error);
    }
  }
}
