// @dormant/registry-submitter/testing: the worker in-process for other workspaces' tests (the
// filing service's harness runs it against the authority simulator).
export { loadRegistrySubmitterConfig } from "../env.ts";
export type { RegistrySubmitterConfig } from "../env.ts";
export { startRegistrySubmitter } from "../worker.ts";
export type { RegistrySubmitter } from "../worker.ts";
