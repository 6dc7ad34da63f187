// What another workspace's tests need to run the notifier as an OS process (as `npm start` runs
// it, never imported): the folder it runs in and the migrations that prepare its database.
import { fileURLToPath } from "node:url";

/** apps/notifier: the working directory of `node --import tsx src/main.ts`. */
export const NOTIFIER_APP_DIR = fileURLToPath(new URL("..", import.meta.url));
export { NOTIFIER_MIGRATIONS_DIR } from "./db/migrations.ts";
