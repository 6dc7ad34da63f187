import type { DocumentDeps } from "./document-deps.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import type { FilingRecord } from "../state/filing-record.ts";

/**
 * Asks the tax submitter for the record of each submit an accepted CT600's parts lack (no
 * IRmark): `tax.resolve_part`, which answers from the submitter's shared records without ever
 * sending, and records what it answers as the submit's answer would have been (IRmark,
 * submitted_at, ct600_xml). The last of the ways a submit's record reaches the filing service
 * (docs/decisions.md, "Where a submission's record lives"): for parts moved on by messages that
 * did not carry it (sent before they did). Answers the parts recorded now; a part the submitter
 * cannot answer for stays as it is (logged).
 */
export async function fetchMissingRecords(deps: DocumentDeps, filing: FilingRecord): Promise<number[]> {
  const { resolver } = deps;
  if (!resolver || filing.filingType !== "ct600") return [];
  const recorded: number[] = [];
  for (const part of filing.parts) {
    if (part.irmark !== null) continue;
    const answer = await resolver.taxPart(filing, part.partNumber);
    if (answer.state !== "acknowledged") {
      deps.logger.warn(
        { filing_id: filing.id, part_number: part.partNumber, state: answer.state, reason: answer.reason },
        "an accepted part has no record of its submit, and the tax submitter cannot give it now",
      );
      continue;
    }
    await recordTaxPartSubmitted(deps.db, filing.id, part.partNumber, answer.response, filing.requestId);
    deps.logger.warn(
      { filing_id: filing.id, part_number: part.partNumber },
      "an accepted part lacked the record of its submit: recorded from the tax submitter",
    );
    recorded.push(part.partNumber);
  }
  return recorded;
}
