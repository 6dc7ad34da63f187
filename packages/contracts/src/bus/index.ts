// Bus-level shapes: message metadata carried in AMQP headers, the bus's own headers (retries,
// dead-lettering), and RPC replies. Service-to-service payloads live in ../messages/.
export { Traceparent, MessageTypeName, BusMessageMetadata } from "./metadata.ts";
export type { BusEnvelope } from "./metadata.ts";
export { BUS_HEADERS, DeadLetterReason, DeadLetterHeaders } from "./headers.ts";
export { RpcReply } from "./rpc.ts";
