import { describe, expect, it } from "vitest";
import { testTopology } from "../test-support/fixture.ts";
import { passwordPlaceholder, passwordVariable, topologyDefinitions } from "./definitions.ts";
import { rabbitPasswordHash } from "./password-hash.ts";
import { exactNames, servicePermissions } from "./permissions.ts";
import { topologyProblems } from "./plan.ts";
import { serviceTopology } from "./roles.ts";
import type { ServiceRoleSpec, Topology } from "./spec.ts";

const role = (service: string, parts: Partial<Omit<ServiceRoleSpec, "service" | "purpose">>): ServiceRoleSpec => ({
  service,
  purpose: "test",
  consumes: [],
  serves: [],
  publishesTo: [],
  calls: [],
  ...parts,
});

/** The bus tests' topology, with a role for each of its parts. */
const topology: Topology = {
  ...testTopology,
  services: [
    role("shop", { consumes: ["orders.work"], serves: ["pricing.rpc"], publishesTo: ["shop.events", "orders.work"] }),
    role("ledger", { consumes: ["ledger.events"], calls: ["pricing.rpc"] }),
    role("clerk", { publishesTo: ["orders.work"] }),
    role("watcher", {}),
  ],
};
const roleOf = (service: string) => topology.services?.find((candidate) => candidate.service === service) as ServiceRoleSpec;

describe("a service's part of the topology and its RabbitMQ permissions", () => {
  it("gives the publisher its exchange, and each consumer its queues with their tiers and parking lot, bound", () => {
    expect(serviceTopology(topology, roleOf("shop"))).toMatchObject({
      exchanges: [{ name: "shop.events" }],
      workQueues: [{ name: "orders.work" }],
      rpcQueues: [{ name: "pricing.rpc" }],
      bindings: [],
    });
    expect(serviceTopology(topology, roleOf("ledger"))).toMatchObject({
      exchanges: [],
      workQueues: [{ name: "ledger.events" }],
      rpcQueues: [],
      bindings: [{ exchange: "shop.events", queue: "ledger.events" }],
    });
  });

  it("lets each service configure and read only its own, write to the default exchange and its own exchanges", () => {
    expect(servicePermissions(topology, roleOf("shop"))).toEqual({
      configure:
        "^(orders\\.work|orders\\.work\\.dlq|orders\\.work\\.wait\\.100ms|orders\\.work\\.wait\\.1s|orders\\.work\\.wait\\.200ms|orders\\.work\\.wait\\.50ms|pricing\\.rpc|shop\\.events)$",
      write: "^(amq\\.default|shop\\.events)$",
      read: "^(orders\\.work|pricing\\.rpc)$",
    });
    // A consumer of events binds its queue (write on it, read on the exchange) but may not declare or publish to the exchange.
    expect(servicePermissions(topology, roleOf("ledger"))).toEqual({
      configure: "^(ledger\\.events|ledger\\.events\\.dlq|ledger\\.events\\.wait\\.100ms|ledger\\.events\\.wait\\.50ms)$",
      write: "^(amq\\.default|ledger\\.events)$",
      read: "^(amq\\.rabbitmq\\.reply-to|ledger\\.events|shop\\.events)$",
    });
    // Sending commands to another's queue needs the default exchange only: the queue is not its to declare or read.
    expect(servicePermissions(topology, roleOf("clerk"))).toEqual({ configure: "^$", write: "^(amq\\.default)$", read: "^$" });
    expect(servicePermissions(topology, roleOf("watcher"))).toEqual({ configure: "^$", write: "^$", read: "^$" });
  });

  it("matches names exactly: dots are not wildcards, no prefix or suffix matches", () => {
    const pattern = new RegExp(exactNames(["orders.work"]));
    expect(pattern.test("orders.work")).toBe(true);
    for (const other of ["ordersXwork", "orders.work.dlq", "x.orders.work", "orders.wor"]) expect(pattern.test(other), other).toBe(false);
    expect(new RegExp(exactNames([])).test("anything")).toBe(false);
  });

  it("is checked: roles name only entries of the topology, and no queue has two consumers", () => {
    expect(topologyProblems(topology)).toEqual([]);
    const broken: Topology = {
      ...testTopology,
      services: [
        role("shop", { consumes: ["orders.work", "nope.work"], publishesTo: ["nope.events"], calls: ["nope.rpc"] }),
        role("thief", { consumes: ["orders.work"], serves: ["ledger.events"] }),
        role("Bad_Name", {}),
      ],
    };
    expect(topologyProblems(broken)).toEqual([
      'service "shop" consumes "nope.work", which is not a work queue',
      'service "shop" calls "nope.rpc", which is not an rpc queue',
      'service "shop" publishes to "nope.events": no such exchange or work queue',
      '"orders.work" is consumed by both "shop" and "thief"',
      'service "thief" serves "ledger.events", which is not an rpc queue',
      'service "Bad_Name": names are lower-case words joined by hyphens',
    ]);
  });
});

describe("the users of the definitions", () => {
  it("carry a placeholder naming the password's variable, unless the deploy-time export gives the hash", () => {
    const committed = topologyDefinitions(topology);
    expect(committed.users?.map((user) => [user.name, user.password_hash])).toEqual([
      ["dormant-shop", "SET_AT_DEPLOY:AMQP_PASSWORD_SHOP"],
      ["dormant-ledger", "SET_AT_DEPLOY:AMQP_PASSWORD_LEDGER"],
      ["dormant-clerk", "SET_AT_DEPLOY:AMQP_PASSWORD_CLERK"],
      ["dormant-watcher", "SET_AT_DEPLOY:AMQP_PASSWORD_WATCHER"],
    ]);
    expect(committed.permissions?.find((entry) => entry.user === "dormant-ledger")).toEqual({
      user: "dormant-ledger",
      vhost: "/",
      ...servicePermissions(topology, roleOf("ledger")),
    });
    expect(passwordVariable("tax-submitter")).toBe("AMQP_PASSWORD_TAX_SUBMITTER");
    expect(passwordPlaceholder("tax-submitter")).toBe("SET_AT_DEPLOY:AMQP_PASSWORD_TAX_SUBMITTER");
    const deployed = topologyDefinitions(topology, { vhost: "dormant", userName: (service) => service, passwordHash: () => "HASH" });
    expect(deployed.users?.[0]).toEqual({
      name: "shop",
      password_hash: "HASH",
      hashing_algorithm: "rabbit_password_hashing_sha256",
      tags: [],
    });
    expect(deployed.permissions?.[0]?.vhost).toBe("dormant");
    expect(topologyDefinitions(topology, { topologyOnly: true })).not.toHaveProperty("users");
  });

  it("hash passwords as RabbitMQ does (its documentation's example: test12 with salt 908DC60A)", () => {
    expect(rabbitPasswordHash("test12", Buffer.from("908DC60A", "hex"))).toBe("kI3GCqW5JLMJa4iX1lo7X4D6XbYqlLgxIs30+P6tENUV2POR");
    expect(rabbitPasswordHash("same")).not.toBe(rabbitPasswordHash("same"));
  });
});
