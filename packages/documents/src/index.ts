export * from "./ixbrl/index.ts";
