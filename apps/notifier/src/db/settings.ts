import { z } from "zod";

/**
 * Where the notifier database lives. A zod shape (not a finished schema) so that env.ts, the
 * migrator and the admin CLI share one name and one default.
 */
export const notifierDatabaseEnvShape = {
  NOTIFIER_DATABASE_URL: z.url().default("postgresql://postgres@127.0.0.1:5432/dormant_notifier"),
};
