import type { Filing, WebhookEndpointWithSecret } from "@dormant/contracts";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import type { ApiClient } from "./api-client.ts";
import type { ReceivedWebhook } from "./webhook-listener.ts";

/** A webhook event as delivered, once its signature is verified. */
export interface VerifiedEvent {
  id: string;
  type: string;
  created_at: string;
  data: Filing;
}

/** Verifies a delivery with the endpoint's secret, as an agent would; returns the parsed event. */
export function verified(secret: string, hook: ReceivedWebhook): VerifiedEvent {
  const headers = {
    "webhook-id": String(hook.headers["webhook-id"]),
    "webhook-timestamp": String(hook.headers["webhook-timestamp"]),
    "webhook-signature": String(hook.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(hook.body, headers) as VerifiedEvent;
}

/** `POST /webhook_endpoints` with the client's key (its mode's endpoints); expects 201. */
export async function register(client: ApiClient, url: string, events?: string[]): Promise<WebhookEndpointWithSecret> {
  const created = await client.request<WebhookEndpointWithSecret>("POST", "/webhook_endpoints", {
    body: { url, ...(events ? { events } : {}), description: "system test listener" },
  });
  expect(created.status, JSON.stringify(created.error)).toBe(201);
  return created.data!;
}
