import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  BILLING_RPC_CATALOG,
  FILING_EVENTS_EXCHANGE,
  FILING_RECONCILE_RPC_CATALOG,
  FILING_RPC_CATALOG,
  PLATFORM_MESSAGE_CATALOG,
  PLATFORM_TOPOLOGY,
  SUBMISSION_RPC_CATALOG,
} from "@dormant/contracts";
import { createTestVhost, uniqueSuffix, type TestVhost } from "@dormant/testing";
import { connect } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus } from "../bus.ts";
import { catalogProblems } from "../catalog/validate.ts";
import { renderDefinitions, topologyDefinitions } from "../topology/definitions.ts";
import { planTopology, topologyProblems } from "../topology/plan.ts";
import { definitionsPath } from "./definitions-file.ts";

const run = promisify(execFile);

/** The platform's topology (PLATFORM_TOPOLOGY in @dormant/contracts), as the operator tools see it. */
describe("the platform topology", () => {
  it("is sound, and every platform catalog fits it", () => {
    expect(topologyProblems(PLATFORM_TOPOLOGY)).toEqual([]);
    const rpc = { ...FILING_RPC_CATALOG, ...FILING_RECONCILE_RPC_CATALOG, ...BILLING_RPC_CATALOG, ...SUBMISSION_RPC_CATALOG };
    expect(catalogProblems(PLATFORM_MESSAGE_CATALOG, rpc, PLATFORM_TOPOLOGY)).toEqual([]);
  });

  it("is committed as infra/rabbitmq/definitions.json (regenerate with `pnpm --filter @dormant/bus export-definitions`)", () => {
    expect(readFileSync(definitionsPath, "utf8")).toBe(renderDefinitions(PLATFORM_TOPOLOGY));
  });

  describe("imported into a broker", () => {
    let vhost: TestVhost;
    const file = join(tmpdir(), `dormant-platform-definitions-${uniqueSuffix()}.json`);
    beforeAll(async () => {
      vhost = await createTestVhost("bus-platform-definitions");
    });
    afterAll(async () => {
      rmSync(file, { force: true });
      await vhost.delete();
    });

    it("is exactly what the services declare (a service connecting afterwards finds nothing to change)", async () => {
      writeFileSync(file, renderDefinitions(PLATFORM_TOPOLOGY, { vhost: vhost.vhost, topologyOnly: true }));
      await run("rabbitmqctl", ["-q", "import_definitions", file]);
      const raw = await connect(vhost.url);
      try {
        const channel = await raw.createChannel();
        for (const queue of planTopology(PLATFORM_TOPOLOGY).queues) await channel.checkQueue(queue.name);
        for (const exchange of PLATFORM_TOPOLOGY.exchanges) await channel.checkExchange(exchange.name);
      } finally {
        await raw.close();
      }
      const bus = await connectBus({
        url: vhost.url,
        service: "definitions-test",
        messages: PLATFORM_MESSAGE_CATALOG,
        rpc: {},
        topology: PLATFORM_TOPOLOGY,
        reconnect: { initialMaxRetries: 0 },
      });
      expect(bus.isConnected()).toBe(true);
      await bus.close();
    });
  });

  describe("with the users' placeholders (the committed file, before the deploy-time export puts the hashes in)", () => {
    let vhost: TestVhost;
    beforeAll(async () => {
      vhost = await createTestVhost("bus-definitions-placeholders");
    });
    afterAll(async () => {
      await vhost.delete();
    });

    it("fails to import, before it changes anything", async () => {
      const definitions = topologyDefinitions(PLATFORM_TOPOLOGY, {
        vhost: vhost.vhost,
        userName: (service) => `${vhost.vhost}-${service}`,
      });
      await expect(vhost.importDefinitions(definitions)).rejects.toThrow(/not_base64/);
      const raw = await connect(vhost.url);
      try {
        const channel = await raw.createChannel();
        channel.on("error", () => undefined);
        await expect(channel.checkExchange(FILING_EVENTS_EXCHANGE)).rejects.toMatchObject({ code: 404 });
      } finally {
        await raw.close().catch(() => undefined);
      }
      const users = await run("rabbitmqctl", ["-q", "list_users", "--no-table-headers"]);
      expect(users.stdout).not.toContain(vhost.vhost);
    });
  });
});
