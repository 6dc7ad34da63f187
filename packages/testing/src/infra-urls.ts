/** Where the test suite finds the real servers; override with env on machines that differ. */
export const testInfra = {
  postgresAdminUrl: process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
  redisUrl: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
  amqpBaseUrl: process.env.TEST_AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672",
};

/** A short random suffix that keeps names of concurrently created resources apart. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** Lower-case, [a-z0-9_] only, so the label is safe inside database and vhost names. */
export function safeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 20);
}
