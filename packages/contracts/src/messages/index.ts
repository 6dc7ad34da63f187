// Service-to-service payloads carried by the bus, validated on both ends.
export * from "./sealed-secret.ts";
export * from "./filing-rpc.ts";
export * from "./filing-account-rpc.ts";
export * from "./fees.ts";
export * from "./submissions.ts";
export * from "./in-doubt.ts";
export * from "./filing-events.ts";
export * from "./billing-rpc.ts";
export * from "./notifier.ts";
export * from "./gateway-rpc.ts";
export * from "./catalogs.ts";
export * from "./platform-topology.ts";
