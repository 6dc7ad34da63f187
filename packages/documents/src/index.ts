export * from "./ixbrl/index.ts";
export * from "./pdf/index.ts";
