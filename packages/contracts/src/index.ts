// The single source of every shape that crosses a boundary: the public HTTP API (api/), the bus
// envelope and topology-level message metadata (bus/), and service-to-service messages (messages/).
export * from "./api/index.ts";
export * from "./bus/index.ts";
export * from "./messages/index.ts";
