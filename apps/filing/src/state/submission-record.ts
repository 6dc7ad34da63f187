import { DOCUMENT_MEDIA_TYPES, type TaxPartSubmission } from "@dormant/contracts";
import type { FilingRecord } from "./filing-record.ts";
import { partOf, type Change } from "./transitions.ts";

/**
 * The record of a submit, filled in on a filing from whichever message brings it first: the
 * submit RPC's answer (or the sweeper's resolution), a `tax.part_polling`, a `tax.part_outcome`,
 * a `registry.status` or a `registry.outcome` (docs/decisions.md, "Where a submission's record
 * lives"). Only what is missing is set, so every path may bring it again, in any order; no status
 * moves here.
 */

function ct600XmlFileName(filing: FilingRecord, partNumber: number): string {
  return filing.periodSplit ? `${filing.id}-ct600-part${partNumber}.xml` : `${filing.id}-ct600.xml`;
}

/** Once every part has its time of submission, the filing's submitted_at is the last one's (set once). */
export function stampSubmittedAt(change: Change): void {
  const filing = change.after;
  if (filing.submittedAt || filing.filingType !== "ct600" || filing.parts.some((p) => p.submittedAt === null)) return;
  filing.submittedAt = new Date(Math.max(...filing.parts.map((p) => p.submittedAt!.getTime())));
}

/**
 * Fills in a CT600 part's record of its submit where it lacks it: its IRmark, its submitted_at,
 * its ct600_xml document (the message as sent, password masked; stored once per part: a second
 * copy is not written), and the filing's submitted_at once every part has one. Answers whether the
 * part lacked any of it (so the change has something to write).
 */
export function fillTaxPartSubmission(change: Change, partNumber: number, submission: TaxPartSubmission): boolean {
  const part = partOf(change, partNumber);
  if (!part) return false;
  const lacking = part.irmark === null || part.submittedAt === null;
  if (!lacking) return false;
  const submittedAt = new Date(submission.submitted_at);
  part.irmark ??= submission.irmark_base64;
  part.submittedAt ??= submittedAt;
  part.updatedAt = change.now;
  pushCt600Xml(change, partNumber, submission);
  stampSubmittedAt(change);
  return true;
}

/** The part's ct600_xml document with the change (the documents' insert keeps one already stored). */
export function pushCt600Xml(change: Change, partNumber: number, submission: TaxPartSubmission): void {
  change.documents.push({
    type: "ct600_xml",
    partNumber,
    mediaType: DOCUMENT_MEDIA_TYPES.ct600_xml,
    fileName: ct600XmlFileName(change.after, partNumber),
    content: Buffer.from(submission.submitted_xml, "utf8"),
    generatedAt: new Date(submission.submitted_at),
  });
}

/** Fills in an accounts filing's submitted_at where it lacks it; answers whether it did. */
export function fillRegistrySubmittedAt(change: Change, submittedAt: string | undefined): boolean {
  if (submittedAt === undefined || change.after.submittedAt !== null) return false;
  change.after.submittedAt = new Date(submittedAt);
  return true;
}
