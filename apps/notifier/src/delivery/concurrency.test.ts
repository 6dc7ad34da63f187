import type { WebhookCaller } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { afterAll, describe, expect, it } from "vitest";
import { type Listener, type ListenerBehaviour, startListener } from "../test-support/listener.ts";
import { useNotifier } from "../test-support/notifier-fixture.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Concurrency per account and per destination host (issue 28 §1), shared through the notifier's
// database: at most 2 attempts in flight per account and mode, 3 per host and mode, with endpoints
// that never answer (3 s time-out) and a consumer of 8 slots.
describe("webhook attempt concurrency per account and per host", () => {
  const fixture = useNotifier("concurrency", {
    WEBHOOK_TIMEOUT_MS: "3000",
    WEBHOOK_ACCOUNT_CONCURRENCY: "2",
    WEBHOOK_HOST_CONCURRENCY: "3",
    NOTIFIER_DELIVERIES_PREFETCH: "8",
  });
  const listeners: Listener[] = [];
  afterAll(async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
  });
  const listen = async (behaviour?: ListenerBehaviour, host?: string) => {
    const listener = await startListener(behaviour, host);
    listeners.push(listener);
    return listener;
  };
  const endpoint = (caller: WebhookCaller, url: string) =>
    fixture.platform.rpcCall("notifier.rpc", "notifier.create_endpoint", { caller, endpoint: { url } });
  const received = (group: Listener[]) => group.reduce((total, listener) => total + listener.received.length, 0);

  it("an account's endpoints that never answer hold at most its limit of attempts; the rest come back later", async () => {
    const caller = fixture.caller("live");
    const silent = [
      await listen(() => "hang", "127.0.0.2"),
      await listen(() => "hang", "127.0.0.2"),
      await listen(() => "hang", "127.0.0.2"),
    ];
    for (const listener of silent) await endpoint(caller, listener.url);
    await fixture.publishAccepted(caller.account_id);
    await waitFor(() => received(silent) >= 2, { what: "two attempts under way", timeoutMs: 5_000 });
    await sleep(1_500);
    // Three deliveries due, two in flight: the third waits on the bus (old code: all three at once).
    expect(received(silent)).toBe(2);
    // Once the first two time out, the third is attempted.
    await waitFor(() => received(silent) >= 3, { what: "the third attempt after the time-out", timeoutMs: 8_000 });
  });

  it("many accounts' endpoints on one host hold at most the host's limit; another host is served meanwhile", async () => {
    const silent: Listener[] = [];
    const accounts = [fixture.caller("live"), fixture.caller("live"), fixture.caller("live")];
    for (const caller of accounts) {
      for (let n = 0; n < 2; n++) {
        const listener = await listen(() => "hang", "127.0.0.3");
        silent.push(listener);
        await endpoint(caller, listener.url);
      }
    }
    for (const caller of accounts) await fixture.publishAccepted(caller.account_id);
    await waitFor(() => received(silent) >= 3, { what: "three attempts at the host", timeoutMs: 5_000 });

    const healthyCaller = fixture.caller("live");
    const healthy = await listen();
    await endpoint(healthyCaller, healthy.url);
    const published = Date.now();
    await fixture.publishAccepted(healthyCaller.account_id);
    await waitFor(() => healthy.received.length === 1, { what: "the other host's webhook", timeoutMs: 5_000 });
    expect((healthy.received[0]?.at ?? Number.POSITIVE_INFINITY) - published).toBeLessThan(1_000);
    await sleep(500);
    // Six deliveries due at one host, three accounts each within its own limit of 2: three in flight
    // (old code: all six).
    expect(received(silent)).toBe(3);
  });
});
