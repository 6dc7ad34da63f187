import { z } from "zod";

/**
 * Where the broker is. A zod shape (not a finished schema) so that env.ts and the admin CLI's
 * share one name and one default.
 */
export const amqpEnvShape = {
  AMQP_URL: z.url().default("amqp://guest:guest@127.0.0.1:5672"),
};
