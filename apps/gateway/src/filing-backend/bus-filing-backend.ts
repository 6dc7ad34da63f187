import {
  AppError,
  credentialsBinding,
  DOCUMENT_CHUNK_MAX_BYTES,
  FILING_RPC_CATALOG,
  type FilingRpcCaller,
  type FilingRpcType,
  LIVE_FILING_ID_PATTERN,
  sealSecret,
  type SealingKey,
} from "@dormant/contracts";
import { type RpcCallingBus, rpcClient } from "@dormant/bus";
import type { z } from "zod";
import { publicBusError } from "../bus/public-bus-error.ts";
import { documentChunks } from "./document-chunks.ts";
import type { FilingBackend, FilingCaller, SubmitInput } from "./filing-backend.ts";

/** What the live backend needs of the bus: RPC calls to the filing service. */
export type FilingRpcBus = RpcCallingBus<typeof FILING_RPC_CATALOG>;

export interface BusFilingBackendOptions {
  bus: FilingRpcBus;
  /** Seals third-party credentials before they go on the bus. */
  sealingKey: SealingKey;
  /** Caller timeouts; the catalog's defaults otherwise. */
  submitTimeoutMs?: number;
  readTimeoutMs?: number;
  /** Bytes per `filing.get_document_chunk` of a download (DEFAULT_DOCUMENT_CHUNK_BYTES). */
  documentChunkBytes?: number;
}

/**
 * Downloads are streamed in slices of this size: one RPC reply holds about 350 KB of base64, and
 * the gateway holds one slice of a document at a time, however large the document.
 */
export const DEFAULT_DOCUMENT_CHUNK_BYTES = 256 * 1024;

function rpcCaller(caller: FilingCaller): FilingRpcCaller {
  return { account_id: caller.accountId, key_id: caller.keyId, mode: caller.mode, request_id: caller.requestId };
}

/** Live filing ids only: a sandbox id (or anything else) is not found without asking anyone. */
function liveFilingId(filingId: string): string {
  if (!LIVE_FILING_ID_PATTERN.test(filingId)) throw new AppError("FILING_NOT_FOUND", "No filing with this id for this API key");
  return filingId;
}

/**
 * Live mode: the gateway owns no filing state, so every read and write is an RPC to the filing
 * service on `filing.rpc`; a download is a series of `filing.get_document_chunk` calls, one per
 * slice, as the HTTP response takes them. Credentials leave the gateway sealed, bound to the account and the
 * Idempotency-Key, so a sealed value copied into another request does not open.
 */
export function createBusFilingBackend(options: BusFilingBackendOptions): FilingBackend {
  const rpc = rpcClient(options.bus, FILING_RPC_CATALOG, (error) => publicBusError(error, "filing service"));
  function call<T extends FilingRpcType>(
    type: T,
    payload: z.input<(typeof FILING_RPC_CATALOG)[T]["request"]>,
    timeoutMs: number | undefined,
  ) {
    return rpc(type, payload, timeoutMs === undefined ? {} : { timeoutMs });
  }
  /** A submit's RPC payload: the filing without its credentials, which travel sealed. */
  function submission<B extends { credentials: unknown }>(caller: FilingCaller, { idempotencyKey, body }: SubmitInput<B>) {
    const { credentials, ...filing } = body;
    const sealed = sealSecret(credentials, options.sealingKey, credentialsBinding(caller.accountId, idempotencyKey));
    return { caller: rpcCaller(caller), idempotency_key: idempotencyKey, filing, credentials: sealed };
  }

  /** A validation's RPC payload: the filing without its credentials, which are not needed and go nowhere. */
  function validation<B extends { credentials: unknown }>(caller: FilingCaller, body: B) {
    const { credentials: _unused, ...filing } = body;
    return { caller: rpcCaller(caller), filing };
  }

  return {
    validateCt600: (caller, body) => call("filing.validate_ct600", validation(caller, body), options.submitTimeoutMs),
    validateAccounts: (caller, body) => call("filing.validate_accounts", validation(caller, body), options.submitTimeoutMs),
    submitCt600: (caller, input) => call("filing.submit_ct600", submission(caller, input), options.submitTimeoutMs),
    submitAccounts: (caller, input) => call("filing.submit_accounts", submission(caller, input), options.submitTimeoutMs),
    async getFiling(caller, filingId) {
      return call("filing.get", { caller: rpcCaller(caller), filing_id: liveFilingId(filingId) }, options.readTimeoutMs);
    },
    listFilings(caller, criteria) {
      return call("filing.list", { caller: rpcCaller(caller), criteria }, options.readTimeoutMs);
    },
    getCompanyDeadlines(caller, companyNumber) {
      // The catalog's timeout: the filing service may have to ask the registry first.
      return call("filing.deadlines", { caller: rpcCaller(caller), company_number: companyNumber }, undefined);
    },
    async listDocuments(caller, filingId) {
      return call("filing.list_documents", { caller: rpcCaller(caller), filing_id: liveFilingId(filingId) }, options.readTimeoutMs);
    },
    async openDocument(caller, filingId, type, part) {
      const request = {
        caller: rpcCaller(caller),
        filing_id: liveFilingId(filingId),
        document_type: type,
        ...(part === undefined ? {} : { part }),
      };
      const length = Math.min(options.documentChunkBytes ?? DEFAULT_DOCUMENT_CHUNK_BYTES, DOCUMENT_CHUNK_MAX_BYTES);
      const fetch = (offset: number) => call("filing.get_document_chunk", { ...request, offset, length }, options.readTimeoutMs);
      // The first slice answers every refusal before a byte is sent, and gives the headers.
      const first = await fetch(0);
      return { mediaType: first.media_type, fileName: first.file_name, sizeBytes: first.total_bytes, chunks: documentChunks(first, fetch) };
    },
  };
}
