import type { WebhookDeliveriesList, WebhookEndpointWithSecret } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../harness/api-client.ts";
import { ct600Body } from "../harness/companies.ts";
import type { RunningSystem } from "../harness/system.ts";
import { waitForFinal } from "../harness/wait-final.ts";
import { register, verified } from "../harness/webhook-endpoints.ts";
import { WebhookListener } from "../harness/webhook-listener.ts";

// Issue 14 end to end, every app a process of its own: an agent registers a local listener as a
// webhook endpoint through the gateway, files, and receives the outcome pushed by the notifier,
// signed per Standard Webhooks and verified here with the `standardwebhooks` package itself.

export function webhooksSuite(shared: () => RunningSystem): void {
  describe("webhooks, end to end through the gateway and the notifier", () => {
    let system: RunningSystem;
    let live: ApiClient;
    let sandbox: ApiClient;
    let listener: WebhookListener;
    let endpoint: WebhookEndpointWithSecret;

    beforeAll(async () => {
      // Retries after 1 s, then 2 s (the default schedule's first two, 5 s and 30 s, are the
      // notifier's own tests' business): the flaky listener below is answered in seconds.
      system = shared();
      const account = await system.createAccount({ balancePence: 100_000 });
      live = system.client(account.liveKey);
      sandbox = system.client(account.testKey);
      listener = await WebhookListener.start();
      endpoint = await register(live, listener.url);
    }, 180_000);
    afterAll(async () => {
      const report = system?.crashReport();
      await listener?.close();
      if (report) throw new Error(report);
    });

    it("registers an endpoint: its secret once, never on reads", async () => {
      expect(endpoint).toMatchObject({ url: listener.url, status: "enabled", events: expect.arrayContaining(["filing.accepted"]) });
      expect(endpoint.secret).toMatch(/^whsec_/);
      const read = await live.request<Record<string, unknown>>("GET", `/webhook_endpoints/${endpoint.id}`);
      expect(read.status).toBe(200);
      expect(read.data).not.toHaveProperty("secret");
      expect(JSON.stringify((await live.request("GET", "/webhook_endpoints")).data)).not.toContain(endpoint.secret);
      // The test key's endpoints are separate: it does not see this one.
      expect((await sandbox.request("GET", `/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
    });

    it("a live CT600 of 00000001: exactly one verified filing.accepted within 10 s of acceptance, then filing.documents_ready", async () => {
      const submitted = await live.submit("ct600", ct600Body("00000001", "2026-03-31", { client_reference: "HOOK-1" }), "webhooks-live-1");
      expect(submitted.status, JSON.stringify(submitted.error)).toBe(202);
      const filingId = submitted.data!.filing_id;
      const final = await waitForFinal(live, filingId, { timeoutMs: 60_000, intervalMs: 500 });
      expect(final.status).toBe("accepted");
      const acceptedAt = Date.parse(final.updated_at);

      await expect.poll(() => listener.ofType("filing.accepted", filingId).length, { timeout: 15_000, interval: 200 }).toBe(1);
      const [hook] = listener.ofType("filing.accepted", filingId);
      const event = verified(endpoint.secret, hook!);
      expect(event).toMatchObject({
        type: "filing.accepted",
        data: { filing_id: filingId, status: "accepted", client_reference: "HOOK-1" },
      });
      expect(event.data).toEqual(final);
      expect(hook!.headers["webhook-id"]).toBe(event.id);
      expect(hook!.receivedAt - acceptedAt).toBeLessThan(10_000);

      await expect.poll(() => listener.ofType("filing.documents_ready", filingId).length, { timeout: 30_000, interval: 250 }).toBe(1);
      expect(verified(endpoint.secret, listener.ofType("filing.documents_ready", filingId)[0]!).data).toMatchObject({
        filing_id: filingId,
      });
      // Nothing more arrives for it (at least once, and here exactly once).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(listener.ofType("filing.accepted", filingId)).toHaveLength(1);

      const deliveries = await live.request<WebhookDeliveriesList>("GET", `/webhook_endpoints/${endpoint.id}/deliveries`);
      expect(deliveries.status).toBe(200);
      expect(deliveries.data?.deliveries.some((d) => d.event_id === event.id && d.outcome === "delivered" && d.status_code === 200)).toBe(
        true,
      );
    });

    it("a listener that answers 500 twice gets the same webhook-id a third time, and a valid signature each time", async () => {
      const flaky = await WebhookListener.start((index) => (index < 2 ? 500 : 200));
      try {
        const flakyEndpoint = await register(live, flaky.url, ["filing.accepted"]);
        const test = await live.request<{ event_id: string }>("POST", `/webhook_endpoints/${flakyEndpoint.id}/test`);
        expect(test.status).toBe(202);
        await expect.poll(() => flaky.received.length, { timeout: 60_000, interval: 250 }).toBe(3);
        const ids = flaky.received.map((hook) => hook.headers["webhook-id"]);
        expect(new Set(ids)).toEqual(new Set([test.data!.event_id]));
        expect(flaky.received.map((hook) => hook.answered)).toEqual([500, 500, 200]);
        for (const hook of flaky.received) expect(verified(flakyEndpoint.secret, hook).type).toBe("webhook.test");
        // The first two retries come within a minute of the first attempt.
        expect(flaky.received[2]!.receivedAt - flaky.received[0]!.receivedAt).toBeLessThan(60_000);
      } finally {
        await flaky.close();
      }
    });

    it("a test key's sandbox submit delivers its events to that key's endpoints within seconds, and nothing to the live ones", async () => {
      const sandboxListener = await WebhookListener.start();
      try {
        const sandboxEndpoint = await register(sandbox, sandboxListener.url);
        const submitted = await sandbox.submit("ct600", ct600Body("00000002", "2026-03-31"), "webhooks-sandbox-1");
        expect(submitted.status).toBe(202);
        const filingId = submitted.data!.filing_id;
        await expect.poll(() => sandboxListener.ofType("filing.rejected", filingId).length, { timeout: 10_000, interval: 200 }).toBe(1);
        const event = verified(sandboxEndpoint.secret, sandboxListener.ofType("filing.rejected", filingId)[0]!);
        expect(event.data).toMatchObject({ filing_id: filingId, sandbox: true, status: "rejected" });
        expect(listener.received.some((hook) => hook.body.includes(filingId))).toBe(false);
        // An accepted one: filing.accepted, then filing.documents_ready, as a live filing's, with its client_reference.
        const accepted = await sandbox.submit(
          "ct600",
          ct600Body("00000001", "2026-03-31", { client_reference: "sandbox-ref-1" }),
          "webhooks-sandbox-2",
        );
        expect(accepted.status).toBe(202);
        const acceptedId = accepted.data!.filing_id;
        for (const type of ["filing.accepted", "filing.documents_ready"]) {
          await expect.poll(() => sandboxListener.ofType(type, acceptedId).length, { timeout: 10_000, interval: 200 }).toBe(1);
          expect(verified(sandboxEndpoint.secret, sandboxListener.ofType(type, acceptedId)[0]!)).toMatchObject({
            type,
            data: { filing_id: acceptedId, sandbox: true, status: "accepted", client_reference: "sandbox-ref-1" },
          });
        }
      } finally {
        await sandboxListener.close();
      }
    });
  });
}
