// The single source of every shape that crosses a boundary: the public HTTP API (api/), the bus
// envelope and message metadata (bus/), service-to-service messages (messages/), and the
// platform's error codes (errors.ts).
export * from "./errors.ts";
export * from "./api/index.ts";
export * from "./bus/index.ts";
export * from "./messages/index.ts";
export * from "./forwarded-address.ts";
