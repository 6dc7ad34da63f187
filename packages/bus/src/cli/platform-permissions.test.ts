import { randomBytes } from "node:crypto";
import {
  BILLING_EVENTS_QUEUE,
  BILLING_RPC_QUEUE,
  FILING_OUTCOMES_QUEUE,
  NOTIFIER_DELIVERIES_QUEUE,
  PLATFORM_MESSAGE_CATALOG,
  PLATFORM_TOPOLOGY,
  TAX_POLL_QUEUE,
  TAX_SUBMIT_QUEUE,
} from "@dormant/contracts";
import { createTestVhost, type TestVhost, waitFor } from "@dormant/testing";
import { type Channel, type ChannelModel, type ConfirmChannel, connect, type Options } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Bus, connectBus } from "../bus.ts";
import { declareRpcQueue, declareTopology } from "../topology/declare.ts";
import { topologyDefinitions } from "../topology/definitions.ts";
import { deadLetterQueueName } from "../topology/names.ts";
import { rabbitPasswordHash } from "../topology/password-hash.ts";
import { DIRECT_REPLY_TO } from "../topology/permissions.ts";
import { planTopology } from "../topology/plan.ts";
import { serviceTopology } from "../topology/roles.ts";
import type { ServiceRoleSpec } from "../topology/spec.ts";

// The platform's users and permissions (the definitions infra/rabbitmq/definitions.json holds,
// rendered for a vhost of this test with users named after it and real password hashes) imported
// into the real broker: each service can do what its role needs, and nothing to another's queues.
// (Platform names come from @dormant/contracts' constants: the bus's sources name none itself.)
const ROLES: readonly ServiceRoleSpec[] = PLATFORM_TOPOLOGY.services;
const passwords = new Map<string, string>(ROLES.map((role) => [role.service, randomBytes(18).toString("base64url")]));

/** The queues that are a service's own: its work queues with their tiers and parking lots, its RPC queues. */
function ownQueues(role: ServiceRoleSpec): string[] {
  const own = serviceTopology(PLATFORM_TOPOLOGY, role);
  return [...planTopology(own).queues.map((queue) => queue.name), ...own.rpcQueues.map((queue) => queue.name)];
}

type Outcome = "ok" | "refused" | string;

let vhost: TestVhost;
const userName = (service: string) => `${vhost.vhost}-${service}`;
const urlOf = (service: string) => vhost.urlFor(userName(service), passwords.get(service) ?? "");

/** One connection per service's user; each operation gets a channel of its own (a refusal closes it). */
const connections = new Map<string, Promise<ChannelModel>>();
function connectionOf(service: string): Promise<ChannelModel> {
  let connection = connections.get(service);
  if (!connection) {
    connection = connect(urlOf(service));
    connections.set(service, connection);
  }
  return connection;
}

/** One operation as a service's user, on a fresh confirm channel: "ok", "refused" (ACCESS_REFUSED) or the error. */
async function as(service: string, operation: (channel: ConfirmChannel) => Promise<unknown>): Promise<Outcome> {
  const channel = await (await connectionOf(service)).createConfirmChannel();
  let closedBy: { code?: number } | undefined;
  channel.on("error", (error: { code?: number }) => {
    closedBy = error;
  });
  try {
    await operation(channel);
    await channel.waitForConfirms();
    await channel.close();
    return "ok";
  } catch (error) {
    // A refused publish fails its confirm with "channel closed"; the channel's error says why.
    await new Promise((resolve) => setImmediate(resolve));
    const code = (error as { code?: number }).code ?? closedBy?.code;
    return code === 403 ? "refused" : (error as Error).message;
  }
}

function publishConfirmed(channel: ConfirmChannel, exchange: string, routingKey: string, options: Options.Publish = {}): Promise<void> {
  return new Promise((resolve, reject) =>
    channel.publish(exchange, routingKey, Buffer.from("{}"), { expiration: "1000", ...options }, (error: unknown) =>
      error ? reject(error) : resolve(),
    ),
  );
}

beforeAll(async () => {
  vhost = await createTestVhost("bus-permissions");
  await vhost.importDefinitions(
    topologyDefinitions(PLATFORM_TOPOLOGY, {
      vhost: vhost.vhost,
      userName,
      passwordHash: (service) => rabbitPasswordHash(passwords.get(service) ?? ""),
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([...connections.values()].map(async (connection) => (await connection).close().catch(() => undefined)));
  await vhost?.delete();
});

describe("each service's RabbitMQ user (infra/rabbitmq/definitions.json)", () => {
  /** Keeps the (auto-delete) RPC queues in existence while services consume and cancel: a guest's consumer on each. */
  let keeper: ChannelModel;
  beforeAll(async () => {
    keeper = await connect(vhost.url);
    const channel: Channel = await keeper.createChannel();
    for (const spec of PLATFORM_TOPOLOGY.rpcQueues) {
      await declareRpcQueue(channel, spec);
      await channel.consume(spec.name, () => undefined, { noAck: false });
    }
  });
  afterAll(async () => {
    await keeper?.close().catch(() => undefined);
  });

  it("may declare its own part of the topology, consume its queues and publish where its role says", async () => {
    const refused: string[] = [];
    const check = async (service: string, what: string, operation: (channel: ConfirmChannel) => Promise<unknown>) => {
      const outcome = await as(service, operation);
      if (outcome !== "ok") refused.push(`${service} ${what}: ${outcome}`);
    };
    for (const role of ROLES) {
      const own = serviceTopology(PLATFORM_TOPOLOGY, role);
      await check(role.service, "declares its topology", async (channel) => {
        await declareTopology(channel, own);
        for (const spec of own.rpcQueues) await declareRpcQueue(channel, spec);
      });
      for (const queue of [...role.consumes, ...role.serves]) {
        await check(role.service, `consumes ${queue}`, async (channel) => {
          const { consumerTag } = await channel.consume(queue, () => undefined);
          await channel.cancel(consumerTag);
        });
      }
      for (const target of role.publishesTo) {
        const isExchange = PLATFORM_TOPOLOGY.exchanges.some((exchange) => exchange.name === target);
        await check(role.service, `publishes to ${target}`, (channel) =>
          isExchange ? publishConfirmed(channel, target, "filing.accepted") : publishConfirmed(channel, "", target),
        );
      }
      for (const queue of role.calls) {
        await check(role.service, `calls ${queue}`, async (channel) => {
          await channel.consume(DIRECT_REPLY_TO, () => undefined, { noAck: true });
          await publishConfirmed(channel, "", queue, { replyTo: DIRECT_REPLY_TO });
        });
      }
    }
    expect(refused).toEqual([]);
  }, 120_000);

  it("may not consume, purge, declare or delete another service's queues, nor publish another's events", async () => {
    const allowed: string[] = [];
    const refuse = async (service: string, what: string, operation: (channel: ConfirmChannel) => Promise<unknown>) => {
      const outcome = await as(service, operation);
      if (outcome !== "refused") allowed.push(`${service} ${what}: ${outcome}`);
    };
    // Each service's checks on its own connection, the services side by side.
    const checks = ROLES.map(async (role) => {
      const mine = new Set(ownQueues(role));
      const others = ROLES.filter((other) => other !== role).flatMap(ownQueues);
      for (const queue of others.filter((name) => !mine.has(name))) {
        await refuse(role.service, `consumes ${queue}`, (channel) => channel.consume(queue, () => undefined));
        if (queue.includes(".wait.")) continue;
        await refuse(role.service, `purges ${queue}`, (channel) => channel.purgeQueue(queue));
        await refuse(role.service, `deletes ${queue}`, (channel) => channel.deleteQueue(queue));
      }
      for (const spec of PLATFORM_TOPOLOGY.workQueues.filter((spec) => !role.consumes.includes(spec.name))) {
        await refuse(role.service, `declares ${spec.name}`, (channel) =>
          declareTopology(channel, { exchanges: [], workQueues: [spec], rpcQueues: [], bindings: [] }),
        );
      }
      for (const exchange of PLATFORM_TOPOLOGY.exchanges.filter((exchange) => !role.publishesTo.includes(exchange.name))) {
        await refuse(role.service, `publishes to ${exchange.name}`, (channel) =>
          publishConfirmed(channel, exchange.name, "filing.accepted"),
        );
        await refuse(role.service, `deletes ${exchange.name}`, (channel) => channel.deleteExchange(exchange.name));
      }
    });
    await Promise.all(checks);
    expect(allowed.sort()).toEqual([]);
  }, 300_000);

  it("refuses the notifier's user the submitters' and billing's queues (ACCESS_REFUSED)", async () => {
    for (const queue of [
      TAX_SUBMIT_QUEUE,
      TAX_POLL_QUEUE,
      BILLING_EVENTS_QUEUE,
      BILLING_RPC_QUEUE,
      deadLetterQueueName(BILLING_EVENTS_QUEUE),
    ]) {
      expect(await as("notifier", (channel) => channel.consume(queue, () => undefined)), queue).toBe("refused");
    }
  });
});

// A small RPC on the submitter's real queue: the point is the users and reply-to, not the payloads.
const PING_RPC = {
  "tax.test_ping": {
    queue: TAX_SUBMIT_QUEUE,
    request: z.object({ n: z.number().int() }),
    response: z.object({ n: z.number().int() }),
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
} as const;

describe("the bus, connected as each service's own user", () => {
  const buses: Array<Bus<typeof PLATFORM_MESSAGE_CATALOG, typeof PING_RPC>> = [];
  const open = async (service: string) => {
    const bus = await connectBus({
      url: urlOf(service),
      service,
      topology: PLATFORM_TOPOLOGY,
      messages: PLATFORM_MESSAGE_CATALOG,
      rpc: PING_RPC,
      reconnect: { initialMaxRetries: 0 },
    });
    buses.push(bus);
    return bus;
  };
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
  });

  it("declares, serves, calls over reply-to, publishes events and commands, and retries through its wait tiers", async () => {
    const submitterBus = await open("tax-submitter");
    const filingBus = await open("filing");
    const billingBus = await open("billing");
    const notifierBus = await open("notifier");

    await submitterBus.rpcServe(TAX_SUBMIT_QUEUE, { "tax.test_ping": async ({ n }) => ({ n: n + 1 }) });
    expect(await filingBus.rpcCall(TAX_SUBMIT_QUEUE, "tax.test_ping", { n: 41 })).toEqual({ n: 42 });

    const accepted: string[] = [];
    await billingBus.consume(BILLING_EVENTS_QUEUE, {
      "filing.accepted": async (message) => void accepted.push(message.payload.filing_id),
      "filing.rejected": async () => undefined,
      "filing.errored": async () => undefined,
    });
    const deliveries: number[] = [];
    await notifierBus.consume(NOTIFIER_DELIVERIES_QUEUE, {
      "notifier.deliver": async (_message, context) => {
        deliveries.push(context.attempt);
        if (context.attempt === 1) throw new Error("the first attempt fails, to be retried");
      },
    });

    await filingBus.publish("filing.accepted", {
      filing_id: "fil_permissions",
      account_id: "acc_permissions",
      filing_type: "accounts",
      company_number: "00000001",
      occurred_at: new Date().toISOString(),
      fee_pence: 2000,
    });
    await notifierBus.publish("notifier.deliver", { delivery_id: "wd_0123456789abcdef" }, { delayMs: 1000 });
    await waitFor(async () => accepted.length === 1 && deliveries.length === 2, {
      what: "the event and the retried command",
      timeoutMs: 20_000,
    });
    expect(accepted).toEqual(["fil_permissions"]);
    expect(deliveries).toEqual([1, 2]);
  }, 60_000);

  it("refuses, before the broker does, what a service's role does not list", async () => {
    const notifierBus = await open("notifier");
    const refusal = (what: string) => `service "notifier" ${what}, which its role in the topology does not allow`;
    await expect(notifierBus.consume(BILLING_EVENTS_QUEUE as never, {} as never)).rejects.toThrow(
      refusal(`consumes ${BILLING_EVENTS_QUEUE}`),
    );
    await expect(notifierBus.publish("registry.outcome", {} as never)).rejects.toThrow(
      refusal(`publishes registry.outcome to ${FILING_OUTCOMES_QUEUE}`),
    );
    await expect(notifierBus.rpcCall(TAX_SUBMIT_QUEUE, "tax.test_ping", { n: 1 })).rejects.toThrow(refusal(`calls ${TAX_SUBMIT_QUEUE}`));
  });

  it("cannot take another service's queue even when the bus is not told its role: the broker refuses", async () => {
    expect(await as("notifier", (channel) => channel.consume(TAX_SUBMIT_QUEUE, () => undefined))).toBe("refused");
    // Under another name the bus declares the whole topology strictly, as it does with a full-access user.
    await expect(
      connectBus({
        url: urlOf("notifier"),
        service: "not-a-platform-service",
        topology: PLATFORM_TOPOLOGY,
        messages: {},
        rpc: {},
        reconnect: { initialMaxRetries: 0 },
      }),
    ).rejects.toThrow();
  });
});
