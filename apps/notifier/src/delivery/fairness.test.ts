import type { WebhookCaller } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { afterAll, describe, expect, it } from "vitest";
import { type Listener, type ListenerBehaviour, startListener } from "../test-support/listener.ts";
import { useNotifier } from "../test-support/notifier-fixture.ts";

// Fairness between modes and accounts (issue 28 §1): small consumer prefetches and a 4 s attempt
// time-out, so that a few endpoints that never answer would fill every slot of a shared consumer.
describe("webhook delivery fairness", () => {
  const fixture = useNotifier("fairness", {
    WEBHOOK_TIMEOUT_MS: "4000",
    NOTIFIER_DELIVERIES_PREFETCH: "4",
    NOTIFIER_TEST_DELIVERIES_PREFETCH: "4",
  });
  const listeners: Listener[] = [];
  afterAll(async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
  });
  const listen = async (behaviour?: ListenerBehaviour) => {
    const listener = await startListener(behaviour);
    listeners.push(listener);
    return listener;
  };
  const endpoint = (caller: WebhookCaller, url: string) =>
    fixture.platform.rpcCall("notifier.rpc", "notifier.create_endpoint", { caller, endpoint: { url } });

  it("test-mode deliveries to endpoints that never answer do not delay live deliveries", async () => {
    const sandbox = fixture.caller("test");
    const silent = [await listen(() => "hang"), await listen(() => "hang")];
    const silentEndpoints = [await endpoint(sandbox, silent[0]?.url ?? ""), await endpoint(sandbox, silent[1]?.url ?? "")];
    // Three "Send test" per silent endpoint: six attempts that hang for the whole 4 s time-out,
    // more than the 4 slots a consumer has.
    for (let round = 0; round < 3; round++) {
      for (const created of silentEndpoints) {
        await fixture.platform.rpcCall("notifier.rpc", "notifier.send_test", { caller: sandbox, endpoint_id: created.id });
      }
    }
    const hanging = () => silent.reduce((total, listener) => total + listener.received.length, 0);
    await waitFor(() => hanging() >= 4, { what: "the silent test endpoints holding four attempts", timeoutMs: 5_000 });

    const live = fixture.caller("live");
    const healthy = await listen();
    await endpoint(live, healthy.url);
    const published = Date.now();
    await fixture.publishAccepted(live.account_id);
    await waitFor(() => healthy.received.length === 1, { what: "the live webhook", timeoutMs: 10_000 });
    // Its own queue and consumer: at once (measured ~50 ms). On one shared queue it waited for a
    // slot, i.e. for the hanging attempts' time-out (~4 s).
    expect((healthy.received[0]?.at ?? Number.POSITIVE_INFINITY) - published).toBeLessThan(1_500);
  });
});
