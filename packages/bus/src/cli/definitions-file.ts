import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

/** The repository root (this file is packages/bus/src/cli/definitions-file.ts). */
export const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../..");

/** Where the committed RabbitMQ definitions of the platform topology live. */
export const definitionsPath = resolve(repoRoot, "infra/rabbitmq/definitions.json");
