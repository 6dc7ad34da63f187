// @dormant/notifier: webhook endpoints and the signed delivery of filing events to them (issue 14).
// Other services reach it over the bus (notifier.rpc, notifier.events); this entry point lets
// integration tests run the real service in-process. Operator functions: "@dormant/notifier/admin".
export { startNotifier } from "./service.ts";
export type { NotifierService, StartNotifierOptions } from "./service.ts";
export { loadNotifierConfig, notifierEnvSchema } from "./env.ts";
export type { NotifierConfig } from "./env.ts";
export { checkWebhookUrl } from "./safety/url-safety.ts";
