// Schemas of the public HTTP API (spec: /api/v1). The gateway validates with them and generates
// its OpenAPI document from them; the filing service reuses them for the RPC payloads.
export * from "./primitives.ts";
export * from "./money.ts";
export * from "./envelope.ts";
export * from "./headers.ts";
export * from "./health.ts";
export * from "./filing-error.ts";
export * from "./filing.ts";
export * from "./ct600-submit.ts";
export * from "./accounts-submit.ts";
export * from "./filings-list.ts";
export * from "./documents.ts";
export * from "./sandbox.ts";
export * from "./sandbox-table.ts";
export * from "./validation-details.ts";
export * from "./in-doubt.ts";
export * from "./account.ts";
export * from "./deadlines.ts";
export * from "./validate.ts";
export * from "./webhooks.ts";
