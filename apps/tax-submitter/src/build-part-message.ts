import type { CheckTaxPartRequest } from "@dormant/contracts";
import { buildCt600SubmitMessage, type Ct600SubmitMessage } from "@dormant/govtalk";
import type { TaxSubmitterConfig } from "./env.ts";
import { transactionIdFor } from "./submit-attempt.ts";

/** Who the GovTalk header says sends the message: the Government Gateway user ID and password. */
export interface Ct600Sender {
  senderId: string;
  password: string;
}

/** The configuration a part's message is built with. */
export type PartMessageConfig = Pick<
  TaxSubmitterConfig["tax"],
  "vendorId" | "productName" | "productVersion" | "gatewayTest" | "companyType"
>;

/** A part's message and the TransactionID it carries. */
export interface PartMessage {
  transactionId: string;
  message: Ct600SubmitMessage;
}

/**
 * The CT600 GovTalk message of one part, as `tax.submit_part` sends it and `tax.check_part`
 * checks it: the part's own TransactionID (transactionIdFor), vendor ID, product, version,
 * `GatewayTest` and `CompanyType` from configuration, the accounts attached when the request
 * carries them (else the dormant reason), and `sender` in the GovTalk header only (the
 * IRenvelope, which the IRmark, the CT schema and HMRC's rules cover, never contains it).
 * Throws GovTalkInputError when the request cannot make a CT600.
 */
export function buildPartMessage(tax: PartMessageConfig, request: CheckTaxPartRequest, sender: Ct600Sender): PartMessage {
  const transactionId = transactionIdFor(request.filing_id, request.part_number);
  const message = buildCt600SubmitMessage(
    {
      utr: request.company.utr,
      companyName: request.company.name,
      companyNumber: request.company.number,
      periodStart: request.period.start,
      periodEnd: request.period.end,
      declarantName: request.declarant.name,
      declarantStatus: request.declarant.status,
      vendorId: tax.vendorId,
      productName: tax.productName,
      productVersion: tax.productVersion,
      gatewayTest: tax.gatewayTest,
      companyType: tax.companyType,
      senderId: sender.senderId,
      password: sender.password,
      // The accounts iXBRL the registry received, when the filing service has it; else the
      // return gives the dormant reason for having none (README, "Submit").
      ...(request.accounts
        ? {
            accounts: {
              ixbrl: Buffer.from(request.accounts.ixbrl_base64, "base64").toString("utf8"),
              ...(request.accounts.filename ? { filename: request.accounts.filename } : {}),
              period: request.accounts.covers,
            },
          }
        : {}),
    },
    { transactionId },
  );
  return { transactionId, message };
}
