import { randomUUID } from "node:crypto";
import { type RpcCallingBus, rpcClient } from "@dormant/bus";
import {
  AppError,
  DOCUMENT_CHUNK_MAX_BYTES,
  type DocumentChunk,
  type DocumentsList,
  type DocumentType,
  FILING_ACCOUNT_RPC_CATALOG,
  type Filing,
  type FilingStatusHistory,
  type FilingsList,
  GATEWAY_RPC_CATALOG,
  type ListFilingsCriteria,
  type SandboxFiling,
  type SandboxOverview,
} from "@dormant/contracts";
import { ServiceUnavailableError } from "../bus/unavailable.ts";

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

export type FilingBus = RpcCallingBus<typeof DASHBOARD_FILING_RPC_CATALOG>;

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
 * filing is FILING_NOT_FOUND there, exactly as an unknown one: the reads of one filing answer
 * null for it. Sandbox answers come from the gateway (sandbox filings are stateless, derived from
 * the id). Either service out of reach is ServiceUnavailableError.
 */
export class FilingClient {
  private readonly rpc;

  constructor(bus: FilingBus) {
    this.rpc = rpcClient(bus, DASHBOARD_FILING_RPC_CATALOG);
  }

  private reader(accountId: string) {
    return { account_id: accountId, request_id: `dash_${randomUUID()}` };
  }

  list(accountId: string, criteria: ListFilingsCriteria): Promise<FilingsList> {
    return answerOf("filing service", this.rpc("filing.account_list", { reader: this.reader(accountId), criteria }));
  }

  /** Null when the filing is unknown or another account's (the filing service never tells them apart). */
  get(accountId: string, filingId: string): Promise<Filing | null> {
    return answerOrNull(this.rpc("filing.account_get", { reader: this.reader(accountId), filing_id: filingId }));
  }

  /**
   * The filing's status changes, oldest first; null when the filing is unknown or another
   * account's. The filing page shows it beside the filing and does without it should this fail.
   */
  history(accountId: string, filingId: string): Promise<FilingStatusHistory | null> {
    return answerOrNull(this.rpc("filing.account_history", { reader: this.reader(accountId), filing_id: filingId }));
  }

  /** The documents of an accepted filing; null when it has none to list (not accepted, unknown, another account's). */
  listDocuments(accountId: string, filingId: string): Promise<DocumentsList | null> {
    return answerOrNull(this.rpc("filing.account_list_documents", { reader: this.reader(accountId), filing_id: filingId }));
  }

  /**
   * A slice of a document from `offset` (at most DOWNLOAD_CHUNK_BYTES); null when the document
   * is not the account's to read (unknown filing, another account's, no such type or part).
   */
  documentChunk(accountId: string, ref: DocumentRef, offset: number, requestId: string): Promise<DocumentChunk | null> {
    return answerOrNull(
      this.rpc("filing.account_get_document_chunk", {
        reader: { account_id: accountId, request_id: requestId },
        filing_id: ref.filingId,
        document_type: ref.type,
        ...(ref.part === undefined ? {} : { part: ref.part }),
        offset,
        length: DOWNLOAD_CHUNK_BYTES,
      }),
    );
  }

  /** What a test key's GET /filings answers (always empty) and the sandbox table. */
  sandboxOverview(accountId: string): Promise<SandboxOverview> {
    return answerOf("gateway", this.rpc("gateway.sandbox_overview", { account_id: accountId }));
  }

  /** What polling a sandbox filing id answers a test key; null when the id is not a sandbox filing id. */
  sandboxFiling(accountId: string, filingId: string): Promise<SandboxFiling | null> {
    return answerOrNull(this.rpc("gateway.sandbox_filing", { account_id: accountId, filing_id: filingId }), "gateway", (error) =>
      isAppError(error, "NOT_FOUND"),
    );
  }
}

const isAppError = (error: unknown, code: string) => error instanceof AppError && error.code === code;

/** The answer; any failure is the service out of reach. */
async function answerOf<T>(service: "filing service" | "gateway", call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw new ServiceUnavailableError(service, error);
  }
}

/** The answer, or null when the service says it is not the account's to read; any other failure is the service out of reach. */
async function answerOrNull<T>(
  call: Promise<T>,
  service: "filing service" | "gateway" = "filing service",
  notThere: (error: unknown) => boolean = isNotThere,
): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (notThere(error)) return null;
    throw new ServiceUnavailableError(service, error);
  }
}
