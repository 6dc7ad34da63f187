import type { AccountsSubmissionInput } from "../registry/form-submission.ts";

export const presenter = { presenterId: "00012345678", presenterAuthCode: "ABC12345DEF", emailAddress: "filings@example.com" };

/** A valid accounts submission input for tests; override what the test is about. */
export function accountsInput(overrides: Partial<AccountsSubmissionInput> = {}): AccountsSubmissionInput {
  return {
    presenter,
    transactionId: "0A1B2C3D",
    gatewayTest: true,
    submissionNumber: "00001A",
    companyNumber: "00000001",
    companyType: "EW",
    companyName: "DORMANT EXAMPLE LIMITED",
    companyAuthCode: "A1B2C3",
    packageReference: "0012",
    dateSigned: "2025-06-30",
    document: {
      content: '<html xmlns="http://www.w3.org/1999/xhtml"><body>Zoë &amp; Co — accounts</body></html>',
      filename: "accounts.html",
    },
    ...overrides,
  };
}
