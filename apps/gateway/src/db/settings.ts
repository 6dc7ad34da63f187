import { z } from "zod";

/**
 * Where the gateway database lives. A zod shape (not a finished schema) so that the gateway's
 * env.ts, the migrator and the admin CLI share one name and one default.
 */
export const gatewayDatabaseEnvShape = {
  GATEWAY_DATABASE_URL: z.string().url().default("postgresql://postgres@127.0.0.1:5432/dormant_gateway"),
};
