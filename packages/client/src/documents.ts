import { DormantApiError } from "./errors.ts";
import { dataOf, type Http } from "./http.ts";
import type { DocumentPart, DocumentsView, DocumentType } from "./types.ts";

/** A downloaded document: its bytes, the name the server gives it and its media type. */
export interface DownloadedDocument {
  bytes: Uint8Array;
  filename: string;
  mediaType: string;
}

/** The file name of `Content-Disposition: attachment; filename="..."` (or `filename*=UTF-8''...`). */
export function filenameOf(contentDisposition: string | null): string | undefined {
  if (!contentDisposition) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(contentDisposition);
  if (extended?.[1]) return decodeURIComponent(extended[1].trim());
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(contentDisposition);
  return plain?.[1] ?? plain?.[2];
}

export class DocumentsApi {
  constructor(private readonly http: Http) {}

  /** The documents of an accepted filing (400 FILING_NOT_COMPLETE before). */
  list(filingId: string): Promise<DocumentsView> {
    return dataOf(this.http.GET("/filings/{filing_id}/documents", { params: { path: { filing_id: filingId } } }));
  }

  /** One document; `part: 2` for the second return of a CT600 period split in two. */
  async download(filingId: string, type: DocumentType, options: { part?: DocumentPart } = {}): Promise<DownloadedDocument> {
    const { data, error, response } = await this.http.GET("/filings/{filing_id}/documents/{type}", {
      params: { path: { filing_id: filingId, type }, query: options.part === undefined ? {} : { part: options.part } },
      parseAs: "arrayBuffer",
    });
    if (!response.ok || data === undefined) throw DormantApiError.fromResponse(response, error);
    const suffix = options.part === undefined || options.part === 1 ? "" : `-part${options.part}`;
    return {
      bytes: new Uint8Array(data),
      filename: filenameOf(response.headers.get("content-disposition")) ?? `${filingId}-${type}${suffix}`,
      mediaType: (response.headers.get("content-type") ?? "application/octet-stream").split(";")[0]!.trim(),
    };
  }
}
