import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { type Bus, connectBus } from "@dormant/bus";
import { GATEWAY_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { NOTIFIER_APP_DIR, NOTIFIER_MIGRATIONS_DIR } from "@dormant/notifier/process";
import { applyMigrations, createLogger, createMetricsRegistry, migrationsFingerprint } from "@dormant/service-kit";
import { createTestDatabase, createTestRedisPrefix, getFreePort, type TestDatabase, type TestRedis } from "@dormant/testing";
import type express from "express";
import { createDashboardApp, type DashboardAppOptions } from "../app.ts";
import { SignInRateLimiter } from "../auth/rate-limit.ts";
import { SessionStore } from "../auth/sessions.ts";
import { GatewayClient } from "../bus/gateway.ts";
import { createTestDashboard, type TestDashboard } from "../test-support/test-dashboard.ts";
import { DASHBOARD_NOTIFIER_RPC_CATALOG, NotifierClient } from "./notifier-client.ts";
import type { WebhooksOptions } from "./routes.ts";

const READY_TIMEOUT_MS = 90_000;

/** Options of another app; `webhooks` adds to the real notifier's client (e.g. a limiter). */
export type AppExtras = Partial<Omit<DashboardAppOptions, "webhooks">> & { webhooks?: Partial<WebhooksOptions> };

/** The real notifier as an OS process on the test vhost, with a database of its own. */
export interface NotifierProcess {
  readonly running: boolean;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** The last lines it wrote (for failure reports). */
  logTail(lines?: number): string;
}

/**
 * Starts apps/notifier (its migrations applied to a fresh database cloned from the template its
 * own tests use) on `amqpUrl`: delivery retries every second and an endpoint disabled after
 * `disableAfterSeconds` of failures, so that tests see failed and disabled endpoints quickly.
 */
async function startNotifierProcess(
  amqpUrl: string,
  database: TestDatabase,
  options: { disableAfterSeconds: number },
): Promise<NotifierProcess> {
  const port = await getFreePort();
  const lines: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: NOTIFIER_APP_DIR, // started as `npm start` starts it, never imported
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
      LOG_FORMAT: "json",
      SHUTDOWN_TIMEOUT_MS: "10000",
      AMQP_URL: amqpUrl,
      NOTIFIER_DATABASE_URL: database.url,
      NOTIFIER_HOST: "127.0.0.1",
      NOTIFIER_PORT: String(port),
      NOTIFIER_SEALING_KEY: randomBytes(32).toString("base64"),
      WEBHOOK_TIMEOUT_MS: "3000",
      WEBHOOK_RETRY_SCHEDULE_SECONDS: "1",
      WEBHOOK_DISABLE_AFTER_SECONDS: String(options.disableAfterSeconds),
      WEBHOOK_SWEEP_INTERVAL_MS: "1000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream)
      createInterface({ input: stream }).on("line", (line) => {
        lines.push(line);
        if (lines.length > 200) lines.shift();
      });
  }
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const logTail = (count = 40) => lines.slice(-count).join("\n");
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited()) throw new Error(`the notifier exited while starting (${child.signalCode ?? child.exitCode}):\n${logTail()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the notifier was not ready within ${READY_TIMEOUT_MS} ms:\n${logTail()}`);
    }
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    get running() {
      return !exited();
    },
    logTail,
    stop: async () => {
      if (exited()) return;
      const done = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/**
 * The test dashboard (real Postgres, Redis and vhost; the stand-in gateway of
 * test-support/test-dashboard.ts) with the Webhooks pages talking to the REAL notifier, started as
 * a process on the same test vhost. `appWith` makes another app on the same database, Redis and
 * bus with other options (e.g. a sign-up limit).
 */
export interface TestWebhooksDashboard {
  base: TestDashboard;
  app: express.Express;
  appWith(options: AppExtras): express.Express;
  /** Absent when created with `notifier: false`. */
  notifier: NotifierProcess | undefined;
  close(): Promise<void>;
}

export async function createTestWebhooksDashboard(
  label: string,
  options: { notifier?: boolean; disableAfterSeconds?: number } = {},
): Promise<TestWebhooksDashboard> {
  const base = await createTestDashboard(label);
  const RPC = { ...GATEWAY_RPC_CATALOG, ...DASHBOARD_NOTIFIER_RPC_CATALOG };
  let scope: TestRedis | undefined;
  let bus: Bus<Record<string, never>, typeof RPC> | undefined;
  let database: TestDatabase | undefined;
  let notifier: NotifierProcess | undefined;
  const closeAll = async () => {
    await bus?.close().catch(() => undefined);
    await notifier?.stop().catch(() => undefined);
    await database?.drop().catch(() => undefined);
    await scope?.cleanup().catch(() => undefined);
    await base.close();
  };
  try {
    if (options.notifier !== false) {
      database = await createTestDatabase({
        label: `dash_${label}_notifier`,
        prepare: async (url) => void (await applyMigrations({ databaseUrl: url, migrationsDir: NOTIFIER_MIGRATIONS_DIR })),
        templateKey: `notifier:${migrationsFingerprint(NOTIFIER_MIGRATIONS_DIR)}`,
      });
      notifier = await startNotifierProcess(base.amqpUrl, database, { disableAfterSeconds: options.disableAfterSeconds ?? 2 });
    }
    scope = createTestRedisPrefix(`dash_${label}_webhooks`);
    const logger = createLogger({ service: "dashboard-test", level: "silent" });
    const connected: Bus<Record<string, never>, typeof RPC> = await connectBus({
      url: base.amqpUrl,
      service: "dashboard-test",
      topology: PLATFORM_TOPOLOGY,
      messages: {},
      rpc: RPC,
      logger,
    });
    bus = connected;
    const prefix = scope.prefix;
    const appWith = (extra: AppExtras) =>
      createDashboardApp(
        {
          db: base.db,
          sessions: new SessionStore(base.redis, { prefix, idleSeconds: 600, absoluteSeconds: 3600 }),
          limiter: new SignInRateLimiter(base.redis, { prefix, windowSeconds: 900, perEmail: 5, perAddress: 20 }),
          gateway: new GatewayClient(connected),
          logger,
          secureCookies: false,
        },
        {
          registry: createMetricsRegistry("dashboard"),
          checks: {},
          ...extra,
          webhooks: { notifier: new NotifierClient(connected), ...extra.webhooks },
        },
      );
    return { base, app: appWith({}), appWith, notifier, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
