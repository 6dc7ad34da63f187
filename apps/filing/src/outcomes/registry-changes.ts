import type { RegistryOutcome } from "@dormant/contracts";
import { isFinalFiling, submissionMayMove } from "../state/filing-state.ts";
import { recordHistory, type Cause, type LockedFiling, type Tx } from "../state/transitions.ts";

/**
 * `registry.outcome`: the accounts' registry_status moves to accepted, rejected or error when
 * the message is about this filing's submission number and the state machine allows it. The
 * registry's own status code (ACCEPT, REJECT, INTERNAL_FAILURE, ...) and reject codes go into the
 * history. A rejection's error becomes the filing's, unless the filing already ended otherwise.
 */
export function applyRegistryOutcome(payload: RegistryOutcome) {
  return async (tx: Tx, filing: LockedFiling, cause: Cause): Promise<boolean> => {
    if (filing.filingType !== "accounts" || filing.registrySubmissionNumber !== payload.submission_number) return false;
    const from = filing.registryStatus ?? "pending";
    if (!submissionMayMove(from, payload.outcome)) return false;
    const error = payload.outcome === "accepted" ? undefined : payload.error;
    await tx.filing.update({
      where: { id: filing.id },
      data: {
        registryStatus: payload.outcome,
        updatedAt: new Date(),
        ...(error && !isFinalFiling(filing.status) ? { errorCode: error.code, errorMessage: error.message } : {}),
      },
    });
    const rejections = payload.outcome === "accepted" ? "" : payload.rejections.map((r) => ` ${r.code} ${r.description}`).join(";");
    await recordHistory(tx, {
      filingId: filing.id,
      field: "registry_status",
      from,
      to: payload.outcome,
      cause: `${cause.text} (registry ${payload.registry_status}${rejections})`,
    });
    return true;
  };
}
