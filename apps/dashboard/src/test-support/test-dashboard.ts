import { type Bus, connectBus } from "@dormant/bus";
import { GATEWAY_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, createMetricsRegistry } from "@dormant/service-kit";
import {
  createTestDatabase,
  createTestRedisPrefix,
  createTestVhost,
  type TestDatabase,
  type TestRedis,
  type TestVhost,
} from "@dormant/testing";
import type express from "express";
import { Redis } from "ioredis";
import request from "supertest";
import { createDashboardApp } from "../app.ts";
import { SignInRateLimiter } from "../auth/rate-limit.ts";
import { SessionStore } from "../auth/sessions.ts";
import { GatewayClient } from "../bus/gateway.ts";
import { closeDashboardDb, createDashboardDb, type DashboardDb } from "../db/client.ts";
import { dashboardMigrationsFingerprint, migrateDashboardDatabase } from "../db/migrations.ts";
import { type StandInGateway, startStandInGateway } from "./stand-in-gateway.ts";

/** A dashboard app on a real database, Redis prefix and vhost, with a stand-in gateway answering gateway.rpc. */
export interface TestDashboard {
  app: express.Express;
  /** The same dashboard, with Secure cookies (as behind https). */
  secureApp: express.Express;
  /** The same dashboard (same database and Redis) talking to another gateway client. */
  appWithGateway(gateway: GatewayClient): express.Express;
  db: DashboardDb;
  redis: Redis;
  /** The Redis prefix the dashboard's sessions and counters live under. */
  redisPrefix: string;
  gateway: StandInGateway;
  databaseUrl: string;
  /** The test vhost (where the stand-in gateway answers). */
  amqpUrl: string;
  close(): Promise<void>;
}

export async function createTestDashboard(label: string): Promise<TestDashboard> {
  let database: TestDatabase | undefined;
  let scope: TestRedis | undefined;
  let vhost: TestVhost | undefined;
  database = await createTestDatabase({
    label: `dash_${label}`,
    prepare: async (url) => void (await migrateDashboardDatabase(url)),
    templateKey: `dashboard:${dashboardMigrationsFingerprint()}`,
  });
  scope = createTestRedisPrefix(`dash_${label}`);
  vhost = await createTestVhost(`dash_${label}`);
  const gateway = await startStandInGateway(vhost.url);
  const db = createDashboardDb(database.url, { max: 4 });
  const redis = new Redis(scope.url, { maxRetriesPerRequest: 1 });
  const logger = createLogger({ service: "dashboard-test", level: "silent" });
  const bus: Bus<Record<string, never>, typeof GATEWAY_RPC_CATALOG> = await connectBus({
    url: vhost.url,
    service: "dashboard-test",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: GATEWAY_RPC_CATALOG,
    logger,
  });
  const make = (secureCookies: boolean, gateway = new GatewayClient(bus)) =>
    createDashboardApp(
      {
        db,
        sessions: new SessionStore(redis, { prefix: scope.prefix, idleSeconds: 600, absoluteSeconds: 3600 }),
        limiter: new SignInRateLimiter(redis, { prefix: scope.prefix, windowSeconds: 900, perEmail: 5, perAddress: 20 }),
        gateway,
        logger,
        secureCookies,
      },
      { registry: createMetricsRegistry("dashboard"), checks: {} },
    );
  return {
    app: make(false),
    secureApp: make(true),
    appWithGateway: (gateway) => make(false, gateway),
    db,
    redis,
    redisPrefix: scope.prefix,
    gateway,
    databaseUrl: database.url,
    amqpUrl: vhost.url,
    close: async () => {
      await bus.close().catch(() => undefined);
      await gateway.close().catch(() => undefined);
      redis.disconnect();
      await closeDashboardDb(db);
      await scope?.cleanup();
      await vhost?.delete();
      await database?.drop();
    },
  };
}

/** The CSRF token of the first form of a page. */
export function csrfOf(pageHtml: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(pageHtml);
  if (!match?.[1]) throw new Error("no CSRF token on the page");
  return match[1];
}

/** The session cookie's value in a response's Set-Cookie, if any. */
export function sessionCookieOf(response: request.Response): string | undefined {
  const cookies = ([] as string[]).concat(response.headers["set-cookie"] ?? []);
  const cookie = cookies.find((c) => c.startsWith("dashboard_session="));
  return cookie ? decodeURIComponent(cookie.split(";")[0]!.slice("dashboard_session=".length)) : undefined;
}

let counter = 0;
/** A unique email and a valid password. */
export function newCredentials(): { email: string; password: string } {
  counter += 1;
  return { email: `agent${counter}.${Date.now()}@example.com`, password: "correct horse battery" };
}

/** Signs up a new agency through the form with a cookie-keeping agent; answers the agent and the credentials. */
export async function signedUpAgent(app: express.Express, name = "Acme Agency") {
  const agent = request.agent(app);
  const credentials = newCredentials();
  const form = await agent.get("/signup");
  const requestId = /name="request_id" value="([^"]+)"/.exec(form.text)?.[1] ?? "";
  const response = await agent
    .post("/signup")
    .type("form")
    .send({ _csrf: csrfOf(form.text), request_id: requestId, name, ...credentials });
  if (response.status !== 303) throw new Error(`sign-up answered ${response.status}: ${response.text}`);
  return { agent, sessionId: sessionCookieOf(response) ?? "", ...credentials };
}
