import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestVhost, uniqueSuffix, type TestVhost } from "@dormant/testing";
import { connect } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus } from "../bus.ts";
import { testTopology } from "../test-support/fixture.ts";
import { renderDefinitions, topologyDefinitions } from "./definitions.ts";
import { planTopology } from "./plan.ts";

const run = promisify(execFile);

describe("RabbitMQ definitions of a topology", () => {
  it("hold every queue and binding the bus declares, quorum queues with a delivery limit on the work queues", () => {
    const definitions = topologyDefinitions(testTopology);
    expect(definitions.queues.map((q) => q.name)).toEqual(planTopology(testTopology).queues.map((q) => q.name));
    for (const spec of testTopology.workQueues) {
      const queue = definitions.queues.find((q) => q.name === spec.name);
      expect(queue?.arguments).toMatchObject({ "x-queue-type": "quorum", "x-delivery-limit": spec.deliveryLimit });
    }
    expect(definitions.queues.every((q) => q.durable && q.arguments["x-queue-type"] === "quorum")).toBe(true);
    expect(definitions.bindings.map((b) => `${b.source} ${b.routing_key} ${b.destination}`)).toEqual(["shop.events order.* ledger.events"]);
    expect(definitions.exchanges.map((e) => `${e.name} ${e.type}`)).toEqual(["shop.events topic"]);
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

    it("are exactly what the bus declares (a service connecting afterwards finds nothing to change)", async () => {
      writeFileSync(file, renderDefinitions(testTopology, { vhost: vhost.vhost }));
      await run("rabbitmqctl", ["-q", "import_definitions", file]);
      // passive checks: each fails (404) unless the import created the queue
      const raw = await connect(vhost.url);
      try {
        const channel = await raw.createChannel();
        for (const queue of planTopology(testTopology).queues) await channel.checkQueue(queue.name);
        for (const exchange of testTopology.exchanges) await channel.checkExchange(exchange.name);
      } finally {
        await raw.close();
      }

      // Redeclaring a queue with other arguments fails with PRECONDITION_FAILED: this connects.
      const bus = await connectBus({
        url: vhost.url,
        service: "definitions-test",
        messages: {},
        rpc: {},
        topology: testTopology,
        reconnect: { initialMaxRetries: 0 },
      });
      expect(bus.isConnected()).toBe(true);
      await bus.close();
    });
  });
});
