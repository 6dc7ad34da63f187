// @dormant/tax-submitter/testing: the worker in-process for other workspaces' tests (the filing
// service's harness runs it against the authority simulator).
export { loadTaxSubmitterConfig } from "../env.ts";
export type { TaxSubmitterConfig } from "../env.ts";
export { startTaxSubmitter } from "../worker.ts";
export type { TaxSubmitter } from "../worker.ts";
