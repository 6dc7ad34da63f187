// @dormant/bus: RabbitMQ for the platform's services, generic: a topology given as data (declared
// at every connect), catalogs of typed messages and RPCs, confirmed publishing, consumers with
// bounded retries and dead-letter queues, RPC over direct reply-to, and recovery after the
// connection drops. See README.md.
export { connectBus } from "./bus.ts";
export { rpcClient } from "./typed-rpc-client.ts";
export type { RpcCaller, RpcCallingBus } from "./typed-rpc-client.ts";
export type { Bus, BusOptions, PublishOptions, SubscribeOptions, RpcCallOptions, Subscription } from "./bus.ts";
export type { ReconnectOptions } from "./connection.ts";

export { defineMessageCatalog, defineRpcCatalog } from "./catalog/define.ts";
export { catalogProblems } from "./catalog/validate.ts";
export type {
  RetryPolicy,
  MessageRoute,
  MessageDefinition,
  MessageCatalog,
  ConsumedQueue,
  TypesOnQueue,
  PayloadOf,
  PayloadInput,
  DeliveryContext,
  MessageHandler,
  HandlerMap,
} from "./catalog/message-catalog.ts";
export type { RpcDefinition, RpcCatalog, RpcQueue, RpcContext, RpcHandler, RpcHandlerMap } from "./catalog/rpc-catalog.ts";

export { defineTopology, planTopology, topologyProblems } from "./topology/plan.ts";
export type { TopologyPlan } from "./topology/plan.ts";
export { declareTopology, declareTopologyAsPermitted, declareRpcQueue } from "./topology/declare.ts";
export {
  topologyDefinitions,
  renderDefinitions,
  serviceUserName,
  passwordVariable,
  passwordPlaceholder,
} from "./topology/definitions.ts";
export type { RabbitDefinitions, DefinitionsOptions } from "./topology/definitions.ts";
export { serviceRole, serviceTopology } from "./topology/roles.ts";
export { servicePermissions, exactNames, DEFAULT_EXCHANGE_RESOURCE, DIRECT_REPLY_TO } from "./topology/permissions.ts";
export type { ServicePermissions } from "./topology/permissions.ts";
export { rabbitPasswordHash, RABBIT_HASHING_ALGORITHM } from "./topology/password-hash.ts";
export { waitQueueName, deadLetterQueueName } from "./topology/names.ts";
export type { Topology, ExchangeSpec, WorkQueueSpec, RpcQueueSpec, BindingSpec, ServiceRoleSpec } from "./topology/spec.ts";

export {
  BusError,
  RpcTimeoutError,
  RpcNoServerError,
  RpcConnectionLostError,
  BusUnavailableError,
  isRetryable,
} from "./errors.ts";
export type { BusFailure } from "./errors.ts";
export { activeTraceHeaders } from "./trace-context.ts";
export type { TraceHeaders } from "./trace-context.ts";
