import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestVhost, uniqueSuffix, type TestVhost } from "@dormant/testing";
import { connect } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus } from "../bus.ts";
import { definitionsPath } from "../cli/paths.ts";
import { systemTopology } from "../topology.ts";
import { renderDefinitions, topologyDefinitions } from "./definitions.ts";
import { planTopology } from "./plan.ts";

const run = promisify(execFile);

describe("RabbitMQ definitions of the system topology", () => {
  it("are committed in step with the topology (regenerate with `pnpm --filter @dormant/bus export-definitions`)", () => {
    expect(readFileSync(definitionsPath, "utf8")).toBe(renderDefinitions(systemTopology));
  });

  it("hold every queue and binding the bus declares, quorum queues with a delivery limit on the work queues", () => {
    const definitions = topologyDefinitions(systemTopology);
    expect(definitions.queues.map((q) => q.name)).toEqual(planTopology(systemTopology).queues.map((q) => q.name));
    for (const spec of systemTopology.workQueues) {
      const queue = definitions.queues.find((q) => q.name === spec.name);
      expect(queue?.arguments).toMatchObject({ "x-queue-type": "quorum", "x-delivery-limit": spec.deliveryLimit });
    }
    expect(definitions.queues.every((q) => q.durable && q.arguments["x-queue-type"] === "quorum")).toBe(true);
    expect(definitions.bindings.map((b) => `${b.source} ${b.routing_key} ${b.destination}`)).toEqual([
      "filing.events filing.accepted billing.events",
      "filing.events filing.rejected billing.events",
      "filing.events filing.errored billing.events",
      "filing.events filing.accepted filing.documents",
    ]);
  });

  describe("imported into a broker", () => {
    let vhost: TestVhost;
    const file = join(tmpdir(), `dormant-definitions-${uniqueSuffix()}.json`);
    beforeAll(async () => {
      vhost = await createTestVhost("bus-definitions");
    });
    afterAll(async () => {
      rmSync(file, { force: true });
      await vhost.delete();
    });

    it("are exactly what the services declare (a service connecting afterwards finds nothing to change)", async () => {
      writeFileSync(file, renderDefinitions(systemTopology, vhost.vhost));
      await run("rabbitmqctl", ["-q", "import_definitions", file]);
      // passive checks: each fails (404) unless the import created the queue
      const raw = await connect(vhost.url);
      try {
        const channel = await raw.createChannel();
        for (const queue of planTopology(systemTopology).queues) await channel.checkQueue(queue.name);
        await channel.checkExchange("filing.events");
      } finally {
        await raw.close();
      }

      // Redeclaring a queue with other arguments fails with PRECONDITION_FAILED: this connects.
      const bus = await connectBus({ url: vhost.url, service: "definitions-test", messages: {}, rpc: {}, reconnect: { initialMaxRetries: 0 } });
      expect(bus.isConnected()).toBe(true);
      await bus.close();
    });
  });
});
