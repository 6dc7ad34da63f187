import { type Bus, connectBus, type RpcHandlerMap, type Subscription } from "@dormant/bus";
import {
  AppError,
  DOCUMENT_TYPES_BY_FILING_TYPE,
  type DocumentType,
  FILING_ACCOUNT_RPC_CATALOG,
  type Filing,
  type FilingAccountReader,
  type FilingStatusChange,
  type FilingSummary,
  PLATFORM_TOPOLOGY,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";

/** One stored document of a stand-in filing (a split CT600 has part 1 and part 2 of each type). */
export interface StandInDocument {
  type: DocumentType;
  part?: 1 | 2;
  fileName: string;
  mediaType: string;
  content: Buffer;
  generatedAt: string;
}

/** A filing as the filing service holds it: the account and the key that made it. */
export interface StandInFilingRecord {
  accountId: string;
  keyId: string;
  filing: Filing;
  documents: StandInDocument[];
  /** Its status changes, oldest first (by default the filing's own status moves, from its times). */
  history: FilingStatusChange[];
}

/** A fault for the next download's slices (after `afterChunks` good ones). */
export type ChunkFault = { afterChunks: number; kind: "regenerated" | "fail" };

/**
 * A stand-in for the filing service's account-wide reads on filing.rpc (another team's service),
 * for tests only, on the real bus of a test vhost. It keeps the contract honest: every read is
 * scoped to `reader.account_id` (another account's filing is FILING_NOT_FOUND, exactly as an
 * unknown one), lists are newest first across the account's keys, a filing's status history
 * oldest first, documents only once accepted.
 */
export interface StandInFiling {
  /** Adds filings made by `keyId` of `accountId` (with their documents and status history, if any). */
  add(
    accountId: string,
    keyId: string,
    filings: Filing[],
    documents?: Record<string, StandInDocument[]>,
    history?: Record<string, FilingStatusChange[]>,
  ): void;
  /** Every filing held, any account. */
  records: StandInFilingRecord[];
  /** Every request answered, in order. */
  requests: { type: string; reader: FilingAccountReader; payload: unknown }[];
  /** Breaks the coming chunk answers once (a document regenerated, or the service failing, mid-download). */
  faultNextDownload(fault: ChunkFault): void;
  /** The next `times` filing.account_history answers are SERVICE_UNAVAILABLE (the service failing). */
  failHistory(times?: number): void;
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

const newestFirst = (a: StandInFilingRecord, b: StandInFilingRecord) =>
  b.filing.created_at.localeCompare(a.filing.created_at) || b.filing.filing_id.localeCompare(a.filing.filing_id);

/**
 * A filing's history when a test gives none: its own status moves as the filing service records
 * them (received pending, sent, then its outcome; an error straight from pending), at its
 * created and updated times.
 */
function historyOf(f: Filing): FilingStatusChange[] {
  const change = (from: string | null, to: string, at: string): FilingStatusChange => ({
    field: "status",
    from_status: from,
    to_status: to,
    occurred_at: at,
  });
  const received = change(null, "pending", f.created_at);
  if (f.status === "pending") return [received];
  if (f.status === "error") return [received, change("pending", "error", f.updated_at)];
  if (f.status === "submitted") return [received, change("pending", "submitted", f.updated_at)];
  return [received, change("pending", "submitted", f.created_at), change("submitted", f.status, f.updated_at)];
}

const notFound = () => new AppError("FILING_NOT_FOUND", "No filing with this id for this account");

export async function startStandInFiling(amqpUrl: string): Promise<StandInFiling> {
  const records: StandInFilingRecord[] = [];
  const byAccount = new Map<string, StandInFilingRecord[]>();
  const requests: StandInFiling["requests"] = [];
  let fault: (ChunkFault & { seen: number }) | null = null;
  let historyFailures = 0;

  const own = (reader: FilingAccountReader, filingId: string): StandInFilingRecord => {
    const found = byAccount.get(reader.account_id)?.find((r) => r.filing.filing_id === filingId);
    if (!found) throw notFound();
    return found;
  };
  const accepted = (record: StandInFilingRecord): StandInFilingRecord => {
    if (record.filing.status !== "accepted")
      throw new AppError(
        "FILING_NOT_COMPLETE",
        `Documents are available once the filing is accepted; this filing is ${record.filing.status}`,
      );
    return record;
  };

  const handlers: RpcHandlerMap<typeof FILING_ACCOUNT_RPC_CATALOG, "filing.rpc"> = {
    "filing.account_list": async (payload) => {
      requests.push({ type: "filing.account_list", reader: payload.reader, payload });
      const c = payload.criteria;
      const all = (byAccount.get(payload.reader.account_id) ?? []).filter(
        ({ filing: f }) =>
          (!c.status || f.status === c.status) &&
          (!c.type || f.filing_type === c.type) &&
          (!c.company_number || f.company_number === c.company_number) &&
          (!c.client_reference || f.client_reference === c.client_reference),
      );
      const page = all.slice(c.offset, c.offset + c.limit).map((r) => summary(r.filing));
      return {
        filings: page,
        pagination: { total: all.length, limit: c.limit, offset: c.offset, has_more: c.offset + page.length < all.length },
      };
    },
    "filing.account_get": async (payload) => {
      requests.push({ type: "filing.account_get", reader: payload.reader, payload });
      return own(payload.reader, payload.filing_id).filing;
    },
    "filing.account_history": async (payload) => {
      requests.push({ type: "filing.account_history", reader: payload.reader, payload });
      if (historyFailures > 0) {
        historyFailures -= 1;
        throw new AppError("SERVICE_UNAVAILABLE", "stand-in filing fails the history read", { retryAfterSeconds: 1 });
      }
      const record = own(payload.reader, payload.filing_id);
      return { filing_id: record.filing.filing_id, changes: record.history };
    },
    "filing.account_list_documents": async (payload) => {
      requests.push({ type: "filing.account_list_documents", reader: payload.reader, payload });
      const record = accepted(own(payload.reader, payload.filing_id));
      const order = (d: StandInDocument) => `${d.type}:${d.part ?? 0}`;
      return {
        filing_id: record.filing.filing_id,
        documents: [...record.documents]
          .sort((a, b) => order(a).localeCompare(order(b)))
          .map((d) => ({ type: d.type, name: d.fileName, size_bytes: d.content.length, generated_at: d.generatedAt })),
      };
    },
    "filing.account_get_document_chunk": async (payload) => {
      requests.push({ type: "filing.account_get_document_chunk", reader: payload.reader, payload });
      const record = own(payload.reader, payload.filing_id);
      if (!DOCUMENT_TYPES_BY_FILING_TYPE[record.filing.filing_type].includes(payload.document_type))
        throw new AppError("DOCUMENT_NOT_FOUND", `A ${record.filing.filing_type} filing has no ${payload.document_type} document`);
      accepted(record);
      const part = payload.part ?? 1;
      const document = record.documents.find((d) => d.type === payload.document_type && (d.part ?? 1) === part);
      if (!document) throw new AppError("DOCUMENT_NOT_FOUND", `This filing has no part ${part} of its ${payload.document_type} document`);
      let generatedAt = document.generatedAt;
      if (fault) {
        fault.seen += 1;
        if (fault.seen > fault.afterChunks) {
          const kind = fault.kind;
          fault = null;
          if (kind === "fail") throw new AppError("SERVICE_UNAVAILABLE", "stand-in filing fails mid-download", { retryAfterSeconds: 1 });
          generatedAt = new Date(Date.parse(document.generatedAt) + 1000).toISOString();
        }
      }
      return {
        document_type: document.type,
        media_type: document.mediaType,
        file_name: document.fileName,
        total_bytes: document.content.length,
        generated_at: generatedAt,
        offset: payload.offset,
        content_base64: document.content.subarray(payload.offset, payload.offset + payload.length).toString("base64"),
      };
    },
  };
  const bus: Bus<Record<string, never>, typeof FILING_ACCOUNT_RPC_CATALOG> = await connectBus({
    url: amqpUrl,
    service: "filing-stand-in",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: FILING_ACCOUNT_RPC_CATALOG,
    logger: createLogger({ service: "filing-stand-in", level: "silent" }),
  });
  const serving: Subscription = await bus.rpcServe("filing.rpc", handlers);
  return {
    records,
    requests,
    add(accountId, keyId, filings, documents = {}, history = {}) {
      const mine = byAccount.get(accountId) ?? [];
      for (const filing of filings) {
        const record = {
          accountId,
          keyId,
          filing,
          documents: documents[filing.filing_id] ?? [],
          history: history[filing.filing_id] ?? historyOf(filing),
        };
        records.push(record);
        mine.push(record);
      }
      mine.sort(newestFirst);
      byAccount.set(accountId, mine);
    },
    faultNextDownload(next) {
      fault = { ...next, seen: 0 };
    },
    failHistory(times = 1) {
      historyFailures = times;
    },
    close: async () => {
      await serving.stop().catch(() => undefined);
      await bus.close();
    },
  };
}
