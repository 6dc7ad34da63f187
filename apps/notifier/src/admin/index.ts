// Operator functions of the notifier, for the root admin CLI (`npm run --silent admin -- ...`) and
// other tooling.
export { adminCli, runNotifierAdminCli, withNotifierDb } from "./cli-commands.ts";
export { AdminError, armReplay, listAccountEndpoints } from "./operations.ts";
export type { EndpointAdminView } from "./operations.ts";
export { NOTIFIER_ADMIN_COMMANDS, NOTIFIER_USAGE, parseNotifierAdminArgs } from "./cli-args.ts";
export type { NotifierAdminCommand } from "./cli-args.ts";
export { notifierDatabaseEnvShape } from "../db/settings.ts";
