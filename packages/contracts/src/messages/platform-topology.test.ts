import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BILLING_RPC_CATALOG, PLATFORM_MESSAGE_CATALOG, SUBMISSION_RPC_CATALOG } from "./catalogs.ts";
import { FILING_RECONCILE_RPC_CATALOG, FILING_RPC_CATALOG } from "./filing-rpc.ts";
import { GATEWAY_RPC_CATALOG } from "./gateway-rpc.ts";
import { NOTIFIER_RPC_CATALOG } from "./notifier.ts";
import { PLATFORM_TOPOLOGY } from "./platform-topology.ts";

/** The operators' description of the topology, beside the RabbitMQ definitions generated from it. */
const infraReadme = readFileSync(new URL("../../../../infra/rabbitmq/README.md", import.meta.url), "utf8");

describe("the platform topology", () => {
  it("binds each event to the queues its catalog route names, in the committed order", () => {
    expect(PLATFORM_TOPOLOGY.bindings.map((b) => `${b.exchange} ${b.routingKey} ${b.queue}`)).toEqual([
      "filing.events filing.accepted billing.events",
      "filing.events filing.rejected billing.events",
      "filing.events filing.errored billing.events",
      "filing.events filing.accepted filing.documents",
      "filing.events filing.accepted notifier.events",
      "filing.events filing.rejected notifier.events",
      "filing.events filing.errored notifier.events",
      "filing.events filing.documents_ready notifier.events",
    ]);
  });

  it("has exactly the queues and exchanges the catalogs route to", () => {
    const routes = Object.values(PLATFORM_MESSAGE_CATALOG).map((definition) => definition.route);
    const routedQueues = new Set(routes.flatMap((route) => (route.kind === "command" ? [route.queue] : route.consumers)));
    const routedExchanges = new Set(routes.flatMap((route) => (route.kind === "event" ? [route.exchange] : [])));
    const rpcQueues = new Set(
      [
        FILING_RPC_CATALOG,
        FILING_RECONCILE_RPC_CATALOG,
        BILLING_RPC_CATALOG,
        SUBMISSION_RPC_CATALOG,
        NOTIFIER_RPC_CATALOG,
        GATEWAY_RPC_CATALOG,
      ].flatMap((catalog) => Object.values(catalog).map((definition) => definition.queue)),
    );
    expect(new Set(PLATFORM_TOPOLOGY.workQueues.map((q) => q.name))).toEqual(routedQueues);
    expect(new Set(PLATFORM_TOPOLOGY.exchanges.map((e) => e.name))).toEqual(routedExchanges);
    expect(new Set(PLATFORM_TOPOLOGY.rpcQueues.map((q) => q.name))).toEqual(rpcQueues);
  });

  it("is described in infra/rabbitmq/README.md's table, entry by entry", () => {
    const names = [...PLATFORM_TOPOLOGY.exchanges, ...PLATFORM_TOPOLOGY.workQueues, ...PLATFORM_TOPOLOGY.rpcQueues].map(
      (entry) => entry.name,
    );
    for (const name of names) expect(infraReadme, name).toContain(`| \`${name}\` |`);
  });

  it("gives every work queue the wait tiers infra/rabbitmq/README.md lists for it", () => {
    const listed = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);
    for (const queue of PLATFORM_TOPOLOGY.workQueues) {
      expect(infraReadme, queue.name).toContain(queue.waitTiersMs.map(listed).join(", "));
    }
  });

  it("gives every queue exactly one service that consumes or serves it, and every message a service that may send it", () => {
    const services = PLATFORM_TOPOLOGY.services;
    const owners = (queue: string) => services.filter((role) => [...role.consumes, ...role.serves].includes(queue as never));
    for (const queue of [...PLATFORM_TOPOLOGY.workQueues, ...PLATFORM_TOPOLOGY.rpcQueues]) {
      expect(owners(queue.name).length, queue.name).toBe(1);
    }
    const mayPublish = new Set(services.flatMap((role) => role.publishesTo));
    for (const [type, { route }] of Object.entries(PLATFORM_MESSAGE_CATALOG)) {
      expect(mayPublish.has(route.kind === "event" ? route.exchange : route.queue), type).toBe(true);
    }
    const called = new Set(services.flatMap((role) => role.calls));
    for (const queue of PLATFORM_TOPOLOGY.rpcQueues) expect(called.has(queue.name), queue.name).toBe(true);
  });

  it("describes each service's RabbitMQ user in infra/rabbitmq/README.md, with every queue and exchange of its role", () => {
    for (const role of PLATFORM_TOPOLOGY.services) {
      const row = infraReadme.split("\n").find((line) => line.startsWith(`| \`dormant-${role.service}\` |`));
      expect(row, role.service).toBeDefined();
      for (const name of [...role.consumes, ...role.serves, ...role.publishesTo, ...role.calls]) {
        expect(row, `${role.service}: ${name}`).toContain(`\`${name}\``);
      }
    }
  });
});
