// @dormant/documents/testing: the test data other workspaces' tests read, e.g. the tax submitter's
// tests attach accounts the registry accepted to a CT600.
export { ACCEPTED_ACCOUNTS_CORPUS, ACCEPTED_DORMANT_ACCOUNTS_FILE } from "./accepted-accounts.ts";
