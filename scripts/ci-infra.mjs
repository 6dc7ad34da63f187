#!/usr/bin/env node
// Starts whichever of PostgreSQL, Redis and RabbitMQ is not answering, and installs xsltproc,
// promtool and Chromium (the browser tests' browser) when they are missing (used by .ci/run, as
// root on a fresh machine).
import { ensureInfra } from "./lib/infra.mjs";
import { ensureChromium, ensurePromtool, ensureXsltproc } from "./lib/system-tools.mjs";
import { log } from "./lib/util.mjs";
try {
  ensureXsltproc({ install: true });
  ensurePromtool({ install: true });
  ensureChromium({ install: true });
  await ensureInfra({ start: true });
  log("PostgreSQL, Redis and RabbitMQ are answering");
} catch (error) {
  log(error.message);
  process.exit(1);
}
