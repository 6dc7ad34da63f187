import type { FilingRecord } from "./filing-record.ts";

/**
 * The filing's `client_reference` as every answer and event about it carries it (issue 13 item
 * 4): the field when the submit had one, nothing otherwise.
 */
export function clientReferenceOf(filing: Pick<FilingRecord, "clientReference">): { client_reference?: string } {
  return filing.clientReference === null ? {} : { client_reference: filing.clientReference };
}
