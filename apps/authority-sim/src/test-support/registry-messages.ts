import { renderDormantAccountsIxbrl } from "@dormant/documents";
import {
  buildAccountsSubmission,
  buildSubmissionStatusRequest,
  companyTypeForNumber,
  formatSubmissionNumber,
  newTransactionId,
  type AccountsSubmissionInput,
  type AccountsSubmissionMessage,
  type RegistryPresenter,
} from "@dormant/govtalk";

/** The presenter the simulator accepts by default. */
export const SIM_PRESENTER: RegistryPresenter = { presenterId: "66666666666", presenterAuthCode: "SIMAUTHCODE" };

let nextSubmission = Math.floor(Math.random() * 1_000_000);

/** A fresh submission number (unique within the test process). */
export function newSubmissionNumber(): string {
  return formatSubmissionNumber(nextSubmission++);
}

/** Dormant accounts for a company rendered by @dormant/documents, as the platform renders them. */
export function dormantAccountsIxbrl(companyNumber: string): string {
  return renderDormantAccountsIxbrl({
    companyName: "Lovelace Engines Limited",
    companyNumber,
    registryCompanyType: "ltd",
    jurisdiction: companyNumber.startsWith("SC") ? "scotland" : companyNumber.startsWith("NI") ? "northern-ireland" : "england-wales",
    periodStart: "2025-04-01",
    periodEnd: "2026-03-31",
    approvalDate: "2026-05-01",
    directorName: "Augusta Ada Lovelace",
    current: { cash: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 0 },
  });
}

/** An accounts FormSubmission built by @dormant/govtalk, as the registry submitter sends it. */
export function accountsSubmission(companyNumber: string, overrides: Partial<AccountsSubmissionInput> = {}): AccountsSubmissionMessage {
  return buildAccountsSubmission({
    presenter: SIM_PRESENTER,
    transactionId: newTransactionId(),
    gatewayTest: true,
    submissionNumber: newSubmissionNumber(),
    companyNumber,
    companyType: companyTypeForNumber(companyNumber),
    companyName: "LOVELACE ENGINES LIMITED",
    companyAuthCode: "A1B2C3",
    packageReference: "0012",
    dateSigned: "2026-05-01",
    document: { content: dormantAccountsIxbrl(companyNumber), filename: "accounts.html" },
    ...overrides,
  });
}

/** A GetSubmissionStatus poll by submission number or company number. */
export function statusRequest(by: { submissionNumber: string } | { companyNumber: string }, presenter = SIM_PRESENTER): string {
  return buildSubmissionStatusRequest({ presenter, transactionId: newTransactionId(), gatewayTest: true, ...by });
}
