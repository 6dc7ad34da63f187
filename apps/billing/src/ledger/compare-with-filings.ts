import type { FinalFiling } from "@dormant/contracts";
import { formatPence } from "../money/pence.ts";
import type { BillingAcceptance, BillingFilingFacts } from "./filing-facts.ts";

/** What a comparison found: problems (money wrong or unexplained) and warnings (money consistent, worth a look). */
export interface Findings {
  problems: string[];
  warnings: string[];
}

const gbp = (pence: bigint) => `${formatPence(pence)} GBP`;

function holdText(facts: BillingFilingFacts | undefined): string {
  const hold = facts?.hold;
  return hold ? `its hold of ${gbp(hold.amountPence)} on ${hold.accountId} is ${hold.state}` : "billing never held a fee for it";
}

function receivedText(facts: BillingFilingFacts | undefined): string {
  const outcomes = facts?.outcomes ?? [];
  return outcomes.length === 0
    ? "billing received no outcome for it"
    : `billing received ${outcomes.map((outcome) => `filing.${outcome}`).join(", ")}`;
}

/**
 * One filing the filing service lists as final, against billing's facts about it:
 * - accepted: billing must have captured the fee named, from the account named (else a problem,
 *   e.g. an acceptance whose event never reached billing);
 * - rejected / error: billing must have captured nothing and seen no acceptance (else a
 *   problem); a hold still open is a warning (its release never came).
 */
export function compareListedFiling(filing: FinalFiling, facts: BillingFilingFacts | undefined, findings: Findings): void {
  const said = `filing ${filing.filing_id}: the filing service says ${filing.status} at ${filing.finalized_at}`;
  const capture = facts?.capture ?? null;
  if (filing.status === "accepted") {
    const fee = BigInt(filing.fee_pence);
    if (!capture) {
      const why = facts?.outcomes.includes("accepted")
        ? "billing received the acceptance but had no open hold to capture"
        : receivedText(facts);
      findings.problems.push(
        `${said} (fee ${gbp(fee)} from ${filing.account_id}), but billing has not charged it: ${why}; ${holdText(facts)}`,
      );
      return;
    }
    if (capture.accountId !== filing.account_id) {
      findings.problems.push(`${said} for account ${filing.account_id}, but billing charged ${capture.accountId}`);
    }
    if (capture.amountPence !== fee) {
      findings.problems.push(`${said} with a fee of ${gbp(fee)}, but billing captured ${gbp(capture.amountPence)}`);
    }
    return;
  }
  if (capture) {
    findings.problems.push(`${said}, but billing captured ${gbp(capture.amountPence)} from ${capture.accountId} for it`);
  } else if (facts?.outcomes.includes("accepted")) {
    findings.problems.push(`${said}, but billing received an acceptance for it (nothing captured: ${holdText(facts)})`);
  }
  if (facts?.hold?.state === "open") {
    findings.warnings.push(`${said}, but ${holdText(facts)} (${receivedText(facts)})`);
  }
}

/**
 * An acceptance billing received for a filing the filing service does not list as final at that
 * time (its event's occurred_at is the filing's finalized_at): unknown to it, not final, or
 * finalized at another time. A problem whether or not billing charged for it.
 */
export function compareUnlistedAcceptance(acceptance: BillingAcceptance, findings: Findings): void {
  const charged = acceptance.capture
    ? `captured ${gbp(acceptance.capture.amountPence)} from ${acceptance.capture.accountId}`
    : `charged nothing (${acceptance.effect.replaceAll("_", " ")})`;
  findings.problems.push(
    `filing ${acceptance.filingId}: billing received its acceptance (occurred at ${acceptance.occurredAt.toISOString()}, account ${acceptance.accountId}) and ${charged}, ` +
      "but the filing service does not list it as finalized then (unknown to it, not final, or finalized at another time)",
  );
}
