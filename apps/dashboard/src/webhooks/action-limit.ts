import type { Redis } from "ioredis";
import { type AttemptVerdict, FixedWindowCounters } from "../auth/rate-limit.ts";

export interface WebhookActionLimits {
  prefix: string;
  windowSeconds: number;
  /** Webhook changes (add, delete, rotate, enable, send test) per account in a window. */
  actionsPerAccount: number;
  /** "Send test" per account in a window (each one is an outgoing POST). */
  testsPerAccount: number;
}

/**
 * The dashboard's webhook forms per account (issue 28): every change is a notifier RPC and
 * "Send test" a POST to the agent's endpoint, so an account (or a script driving its session)
 * cannot flood the notifier or a host through the dashboard. Fixed windows in Redis, counted
 * before the RPC.
 */
export class WebhookActionLimiter {
  private readonly counters: FixedWindowCounters;

  constructor(
    redis: Redis,
    private readonly limits: WebhookActionLimits,
  ) {
    this.counters = new FixedWindowCounters(redis, limits.prefix, limits.windowSeconds);
  }

  attempt(accountId: string, action: "change" | "test"): Promise<AttemptVerdict> {
    return this.counters.attempt([
      { kind: "webhooks:account", subject: accountId, max: this.limits.actionsPerAccount },
      ...(action === "test" ? [{ kind: "webhooks:test", subject: accountId, max: this.limits.testsPerAccount }] : []),
    ]);
  }
}
