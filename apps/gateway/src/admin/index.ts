// @dormant/gateway/admin: what other workspaces' tests need to open an account the way
// `npm run admin -- create-account` does, in process (tests/system): the gateway database client,
// the key hasher and createAccount. Operators use the CLI (cli.ts through scripts/admin.mjs).
export { createAccount } from "./accounts.ts";
export type { CreateAccountInput, CreatedAccount } from "./accounts.ts";
export { createGatewayDb } from "../db/client.ts";
export type { GatewayDb } from "../db/client.ts";
export { createSecretHasher } from "../keys/hash.ts";
