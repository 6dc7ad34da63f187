import { describe, expect, it } from "vitest";
import { z } from "zod";
import { testMessages, testRpc, testTopology, type TestBus } from "../test-support/fixture.ts";
import { connectBus } from "../bus.ts";
import { defineTopology, topologyProblems } from "../topology/plan.ts";
import { defineMessageCatalog } from "./define.ts";
import { catalogProblems } from "./validate.ts";

const retry = { maxAttempts: 3, backoffMs: [50], jitter: 0.1 };
const schema = z.object({});

describe("catalogProblems", () => {
  it("accepts catalogs that fit the topology", () => {
    expect(catalogProblems(testMessages, testRpc, testTopology)).toEqual([]);
  });

  it("finds unknown queues and exchanges, unbound or unlisted consumers, backoffs that are not tiers", () => {
    const messages = defineMessageCatalog({
      "a.command": { schema, schemaVersion: 1, route: { kind: "command", queue: "no.such.queue" }, retry, timeoutMs: 100 },
      "b.event": {
        schema,
        schemaVersion: 1,
        route: { kind: "event", exchange: "no.such.exchange", routingKey: "b.event", consumers: [] },
        retry,
        timeoutMs: 100,
      },
      "order.unlisted": {
        schema,
        schemaVersion: 1,
        route: { kind: "event", exchange: "shop.events", routingKey: "order.unlisted", consumers: [] },
        retry,
        timeoutMs: 100,
      },
      "c.unbound": {
        schema,
        schemaVersion: 1,
        route: { kind: "event", exchange: "shop.events", routingKey: "c.unbound", consumers: ["ledger.events"] },
        retry,
        timeoutMs: 100,
      },
      "d.command": {
        schema,
        schemaVersion: 0,
        route: { kind: "command", queue: "orders.work" },
        retry: { maxAttempts: 2, backoffMs: [70], jitter: 1 },
        timeoutMs: 0,
      },
      BadName: { schema, schemaVersion: 1, route: { kind: "command", queue: "orders.work" }, retry, timeoutMs: 100 },
    });
    const rpc = { "x.call": { queue: "orders.work", request: schema, response: schema, schemaVersion: 1, timeoutMs: 100 } };
    expect(catalogProblems(messages, rpc, testTopology)).toEqual([
      'message "a.command": "no.such.queue" is not a work queue of the topology',
      'message "b.event": unknown exchange "no.such.exchange"',
      'message "b.event": an event needs at least one consuming queue',
      'message "order.unlisted": an event needs at least one consuming queue',
      'message "order.unlisted": "ledger.events" is bound to receive it but not listed in consumers',
      'message "c.unbound": no binding delivers "c.unbound" from "shop.events" to "ledger.events"',
      'message "d.command": schemaVersion must be a positive integer',
      'message "d.command": timeoutMs must be a positive integer',
      'message "d.command": retry.jitter must be in [0, 1)',
      'message "d.command": backoff 70 ms is not a wait tier of "orders.work"',
      'message "BadName": type names are dotted lower-case words',
      'rpc "x.call": "orders.work" is not an rpc queue of the topology',
    ]);
  });

  it("makes the compiler demand exactly one handler per message type arriving on a queue", () => {
    const typeChecks = (bus: TestBus) => {
      // @ts-expect-error order.audit also arrives on orders.work
      void bus.consume("orders.work", { "order.place": async () => undefined });
      void bus.consume("orders.work", {
        "order.place": async (message) => void message.payload.seq.toFixed(),
        "order.audit": async (message) => void message.payload.orderId.trim(),
        // @ts-expect-error order.shipped does not arrive on orders.work
        "order.shipped": async () => undefined,
      });
      // @ts-expect-error nothing of the catalog is consumed from an rpc queue
      void bus.consume("pricing.rpc", {});
      // @ts-expect-error pricing.quote is served on pricing.rpc
      void bus.rpcCall("nobody.rpc", "pricing.quote", { sku: "x", quantity: 1 });
      void bus.rpcServe("pricing.rpc", {
        "pricing.quote": async () => ({ totalPence: 1, requestId: "r" }),
        // @ts-expect-error nobody.ping is not served on pricing.rpc
        "nobody.ping": async () => ({}),
      });
    };
    expect(typeChecks).toBeTypeOf("function");
  });
});

describe("topology checks", () => {
  it("the test topology is sound", () => {
    expect(topologyProblems(testTopology)).toEqual([]);
  });

  it("connectBus refuses an unsound topology before it connects", async () => {
    const unsound = {
      ...testTopology,
      bindings: [...testTopology.bindings, { exchange: "shop.events", routingKey: "#", queue: "orders.work.dlq" }],
    };
    // no broker listens on port 1: the check must fail first
    await expect(connectBus({ url: "amqp://127.0.0.1:1", service: "t", messages: {}, rpc: {}, topology: unsound })).rejects.toThrow(
      'invalid bus topology:\n  - binding of "shop.events" to "orders.work.dlq", which is not a work queue',
    );
  });

  it("finds duplicates, bad tiers, dangling bindings", () => {
    expect(() =>
      defineTopology({
        exchanges: [{ name: "amq.topic", type: "topic", purpose: "" }],
        workQueues: [
          { name: "a", purpose: "", waitTiersMs: [100, 50], deliveryLimit: 0 },
          { name: "a", purpose: "", waitTiersMs: [], deliveryLimit: 3 },
        ],
        rpcQueues: [{ name: "a.dlq", purpose: "", maxRequestAgeMs: 1000 }],
        bindings: [{ exchange: "x", routingKey: "#", queue: "b" }],
      }),
    ).toThrow(
      /reserved name[\s\S]*tiers must ascend[\s\S]*deliveryLimit[\s\S]*queue "a" declared twice[\s\S]*needs at least one wait tier[\s\S]*queue "a.dlq" declared twice[\s\S]*unknown exchange "x"/,
    );
  });
});
