#!/usr/bin/env node
// Starts whichever of PostgreSQL, Redis and RabbitMQ is not answering (used by .ci/run).
import { ensureInfra } from "./lib/infra.mjs";
import { log } from "./lib/util.mjs";
try {
  await ensureInfra({ start: true });
  log("PostgreSQL, Redis and RabbitMQ are answering");
} catch (error) {
  log(error.message);
  process.exit(1);
}
