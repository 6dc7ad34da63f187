import type { FilingDb } from "../db/client.ts";
import { FILING_READ_COLUMNS } from "../state/filing-columns.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { filingsFromRows, type FilingRow } from "../state/filing-rows.ts";
import { STORED_KEY_SQL, type RenderableFiling } from "./render-missing.ts";

/** What the documents consumer needs to handle one `filing.accepted` message. */
export interface DocumentsRead {
  /** The message id is in the inbox already: it was handled. */
  seen: boolean;
  /** The filing with its parts and its accounts' facts; null when there is none. */
  filing: (FilingRecord & RenderableFiling) | null;
  /** The documents the filing has (keys as `storedKey`). */
  stored: ReadonlySet<string>;
}

type Row = FilingRow & { seen: boolean; accounts_input: unknown; stored: string[] | null };

/**
 * One statement: whether `messageId` was handled, the filing `filingId` with its parts and
 * `accounts_input` (the facts its accounts PDF is rendered from), and the documents it has.
 */
export async function readForDocuments(db: FilingDb, messageId: string, filingId: string): Promise<DocumentsRead> {
  const rows = await db.$queryRaw<Row[]>`
    /* documents */
    SELECT EXISTS (SELECT 1 FROM inbox WHERE message_id = ${messageId}) AS seen,
      f.accounts_input,
      (SELECT array_agg(${STORED_KEY_SQL}) FROM documents d WHERE d.filing_id = f.id) AS stored,
      ${FILING_READ_COLUMNS}
    FROM (SELECT 1) AS one
      LEFT JOIN filings f ON f.id = ${filingId}
      LEFT JOIN filing_parts p ON p.filing_id = f.id
    ORDER BY p.part_number`;
  const first = rows[0];
  const record = first?.id ? filingsFromRows(rows)[0] : undefined;
  return {
    seen: first?.seen ?? false,
    filing: record ? { ...record, accountsInput: first!.accounts_input } : null,
    stored: new Set(first?.stored ?? []),
  };
}
