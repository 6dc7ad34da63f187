import { DOCUMENT_MEDIA_TYPES, type SubmitRegistryAccountsResponse, type SubmitTaxPartResponse } from "@dormant/contracts";
import { AppError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { submissionMayMove } from "../state/filing-state.ts";
import { lockFiling, recordHistory, settleFiling, type LockedFiling, type Tx } from "../state/transitions.ts";

function ct600XmlFileName(filing: LockedFiling, partNumber: number): string {
  return filing.periodSplit ? `${filing.id}-ct600-part${partNumber}.xml` : `${filing.id}-ct600.xml`;
}

/** Once every part is acknowledged, the filing's submitted_at is the last acknowledgement's (set once). */
async function stampSubmittedAt(tx: Tx, filing: LockedFiling): Promise<void> {
  if (filing.submittedAt || filing.parts.some((p) => p.submittedAt === null)) return;
  const last = Math.max(...filing.parts.map((p) => p.submittedAt!.getTime()));
  await tx.filing.update({ where: { id: filing.id }, data: { submittedAt: new Date(last) } });
}

async function locked(tx: Tx, filingId: string): Promise<LockedFiling> {
  const filing = await lockFiling(tx, filingId);
  if (!filing) throw new AppError("INTERNAL_ERROR", "The filing disappeared while it was being submitted");
  return filing;
}

/**
 * A CT600 part acknowledged by the tax authority: its correlation id and IRmark, tax_status
 * submitted (unless an outcome already overtook it), the GovTalk message as sent (password
 * masked) as its ct600_xml document, and the filing settled (pending -> submitted once every part
 * is acknowledged), in one transaction. Safe to repeat: nothing already recorded is overwritten.
 */
export async function recordTaxPartSubmitted(db: FilingDb, filingId: string, partNumber: number, response: SubmitTaxPartResponse, requestId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const filing = await locked(tx, filingId);
    const part = filing.parts.find((p) => p.partNumber === partNumber);
    if (!part) throw new AppError("INTERNAL_ERROR", `The filing has no part ${partNumber}`);
    const cause = `submit acknowledged by the tax authority (correlation id ${response.correlation_id})`;
    const moves = submissionMayMove(part.taxStatus, "submitted");
    await tx.filingPart.update({
      where: { filingId_partNumber: { filingId, partNumber } },
      data: {
        taxCorrelationId: part.taxCorrelationId ?? response.correlation_id,
        irmark: part.irmark ?? response.irmark_base64,
        submittedAt: part.submittedAt ?? new Date(response.submitted_at),
        ...(moves ? { taxStatus: "submitted" as const, updatedAt: new Date() } : {}),
      },
    });
    if (moves) {
      await recordHistory(tx, { filingId, partNumber, field: "tax_status", from: part.taxStatus, to: "submitted", cause });
      await tx.filing.update({ where: { id: filingId }, data: { updatedAt: new Date() } });
    }
    const content = Buffer.from(response.submitted_xml, "utf8");
    await tx.document.createMany({
      data: [
        {
          filingId,
          type: "ct600_xml",
          partNumber,
          mediaType: DOCUMENT_MEDIA_TYPES.ct600_xml,
          fileName: ct600XmlFileName(filing, partNumber),
          content,
          sizeBytes: content.length,
          generatedAt: new Date(response.submitted_at),
        },
      ],
      skipDuplicates: true,
    });
    const updated = await locked(tx, filingId);
    await stampSubmittedAt(tx, updated);
    await settleFiling(tx, updated, { text: cause, requestId });
  });
}

/** The accounts acknowledged by the registry: registry_status submitted and the filing settled. */
export async function recordRegistrySubmitted(db: FilingDb, filingId: string, response: SubmitRegistryAccountsResponse, requestId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const filing = await locked(tx, filingId);
    const cause = `submission ${response.submission_number} acknowledged by the registry`;
    const from = filing.registryStatus ?? "pending";
    if (submissionMayMove(from, "submitted")) {
      await tx.filing.update({ where: { id: filingId }, data: { registryStatus: "submitted", updatedAt: new Date() } });
      await recordHistory(tx, { filingId, field: "registry_status", from, to: "submitted", cause });
    }
    if (!filing.submittedAt) await tx.filing.update({ where: { id: filingId }, data: { submittedAt: new Date(response.submitted_at) } });
    await settleFiling(tx, await locked(tx, filingId), { text: cause, requestId });
  });
}
