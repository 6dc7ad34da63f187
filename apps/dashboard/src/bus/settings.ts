import { z } from "zod";

/** Where the broker is (env.ts and the admin CLI share it). */
export const amqpEnvShape = {
  AMQP_URL: z.url().default("amqp://guest:guest@127.0.0.1:5672"),
};
