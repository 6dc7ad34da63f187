// Service-to-service payloads carried by the bus, validated on both ends.
export * from "./sealed-secret.ts";
export * from "./filing-rpc.ts";
