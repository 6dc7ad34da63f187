// Writes the platform's bus topology (PLATFORM_TOPOLOGY in @dormant/contracts) as RabbitMQ
// definitions (infra/rabbitmq/definitions.json).
// Usage: pnpm --filter @dormant/bus export-definitions [--vhost /] [--out path]
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { renderDefinitions } from "../topology/definitions.ts";
import { definitionsPath } from "./definitions-file.ts";

const { values } = parseArgs({
  options: { vhost: { type: "string", default: "/" }, out: { type: "string", default: definitionsPath } },
});
const out = resolve(values.out);
writeFileSync(out, renderDefinitions(PLATFORM_TOPOLOGY, values.vhost));
process.stdout.write(`wrote ${out}\n`);
