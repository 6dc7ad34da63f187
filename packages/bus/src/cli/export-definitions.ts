// Writes the platform's bus topology as RabbitMQ definitions (infra/rabbitmq/definitions.json).
// Usage: pnpm --filter @dormant/bus export-definitions [--vhost /] [--out path]
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { systemTopology } from "../topology.ts";
import { renderDefinitions } from "../topology/definitions.ts";
import { definitionsPath } from "./paths.ts";

const { values } = parseArgs({
  options: { vhost: { type: "string", default: "/" }, out: { type: "string", default: definitionsPath } },
});
const out = resolve(values.out);
writeFileSync(out, renderDefinitions(systemTopology, values.vhost));
process.stdout.write(`wrote ${out}\n`);
