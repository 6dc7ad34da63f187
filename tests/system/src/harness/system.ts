import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createTestRedisPrefix, createTestVhost, getFreePort, testInfra, type TestRedis, type TestVhost } from "@dormant/testing";
import { createSystemAccount, type NewAccount, type SystemAccount } from "./accounts.ts";
import { ApiClient } from "./api-client.ts";
import { AppProcess } from "./app-process.ts";
import { billingAdmin, type BillingAdmin } from "./billing-admin.ts";
import { createDashboardDatabase, createServiceDatabases, type ServiceDatabases } from "./databases.ts";
import { APP_NAMES, type AppName } from "./paths.ts";
import { SimControl } from "./sim-control.ts";

export interface SystemOptions {
  /** Names the databases, vhost and Redis prefix. */
  label: string;
  /**
   * `development` (default: as `npm start`) or `production` (every production-only setting
   * given explicitly: random pepper, sealing key and webhook secret, the simulator as the
   * authorities, fast poll and give-up timings).
   */
  mode?: "development" | "production";
  /** Log level of every app (default `warn`; `SYSTEM_TEST_LOG_LEVEL` overrides). */
  logLevel?: string;
  /** Extra environment per app (e.g. shorter timeouts). */
  env?: Partial<Record<AppName, Record<string, string>>>;
  /** Extra node arguments per app (e.g. `--cpu-prof`). */
  nodeArgs?: Partial<Record<AppName, string[]>>;
  /** Copy every app's output here (default: stderr when `SYSTEM_TEST_ECHO=1`). */
  echo?: NodeJS.WritableStream;
  /**
   * Processes per app (default 1), each on ports of its own and otherwise the same settings, as
   * ops run replicas at a deadline. The simulator is one process: it is the authorities.
   */
  replicas?: Partial<Record<ReplicatedApp, number>>;
  /**
   * Also start the account dashboard (apps/dashboard), once the others are ready, with a database
   * of its own, the system's vhost and a key prefix under the system's; `env` adds to its
   * environment. Off by default: only the browser tests need it.
   */
  dashboard?: boolean | { env?: Record<string, string> };
}

/** Apps that can run as several replicas (every app but the simulator). */
export type ReplicatedApp = Exclude<AppName, "authority-sim">;

/** The environment variable naming the port each app serves on (readiness, metrics, its API). */
const PORT_VARIABLE: Record<AppName, string> = {
  "authority-sim": "SIM_PORT",
  "tax-submitter": "OPS_PORT",
  "registry-submitter": "OPS_PORT",
  billing: "BILLING_PORT",
  filing: "OPS_PORT",
  notifier: "NOTIFIER_PORT",
  gateway: "PORT",
};

export interface RunningSystem {
  /** The first gateway replica's base URL. */
  readonly gatewayUrl: string;
  /** Every gateway replica's base URL (one unless `replicas.gateway` says more). */
  readonly gatewayUrls: readonly string[];
  /** The dashboard's base URL (its own origin): set when started with `dashboard`. */
  readonly dashboardUrl: string | undefined;
  /** The dashboard's process: set when started with `dashboard`. */
  readonly dashboard: AppProcess | undefined;
  readonly sim: SimControl;
  readonly billing: BillingAdmin;
  /** The first replica of each app. */
  readonly apps: Readonly<Record<AppName, AppProcess>>;
  /** Every replica of one app, the first one first. */
  replicas(app: AppName): readonly AppProcess[];
  /** Base URL of one replica's own HTTP server: `/readyz`, `/metrics` (and the gateway's API). */
  opsUrl(app: AppName, replica?: number): string;
  readonly databases: ServiceDatabases;
  readonly vhost: TestVhost;
  readonly redis: TestRedis;
  /** Opens an account (gateway keys + billing opening balance) and answers its keys. */
  createAccount(input: NewAccount): Promise<SystemAccount>;
  /** A client of the public API with this key. */
  client(apiKey: string): ApiClient;
  /** kill -9 of one app, then start it again with the same settings once `downMs` passed. */
  crash(app: AppName, options?: { downMs?: number }): Promise<void>;
  /** Apps that exited without being told to (should be none), with their last output. */
  crashReport(): string;
  /** Stops every app gracefully (gateway first) and deletes every resource. */
  stop(): Promise<void>;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** CPU time the processes used so far (user + system, from /proc; Linux only), for the timing lines. */
function cpuSeconds(processes: readonly AppProcess[]): string {
  let ticks = 0;
  for (const app of processes) {
    try {
      // Fields after the command's closing parenthesis: state is the 3rd field of the line, utime the 14th, stime the 15th.
      const fields = readFileSync(`/proc/${app.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return "? s";
    }
  }
  return seconds(ticks * 10);
}

/** With `SYSTEM_TEST_TIMING=1`, how long a system took to start and stop goes to stderr (where a file's time goes). */
function timing(line: string): void {
  if (process.env.SYSTEM_TEST_TIMING === "1") process.stderr.write(`[system timing] ${new Date().toISOString()} ${line}\n`);
}

/** Settings that only production requires, given so that `NODE_ENV=production` starts against the simulator. */
function productionEnv(sim: string): Partial<Record<AppName, Record<string, string>>> {
  return {
    "tax-submitter": { TAX_BASE_URL: `${sim}/tax`, TAX_VENDOR_ID: "1234", TAX_GATEWAY_TEST: "true", POLL_GIVE_UP_AFTER_SECONDS: "60" },
    "registry-submitter": {
      REGISTRY_GATEWAY_URL: `${sim}/registry`,
      REGISTRY_GATEWAY_TEST: "true",
      REGISTRY_PRESENTER_ID: "66666666666",
      REGISTRY_PRESENTER_AUTH_CODE: "SIMAUTHCODE",
      REGISTRY_PACKAGE_REFERENCE: "0012",
      REGISTRY_POLL_INTERVAL_SECONDS: "1",
      POLL_GIVE_UP_AFTER_SECONDS: "60",
    },
  };
}

/**
 * Starts the real system as separate OS processes, each as `npm start` starts it, on resources
 * of its own: a fresh database per service (migrated template clones), a RabbitMQ vhost, a Redis
 * key prefix, free ports, and the authority simulator with fast timing. Nothing a running
 * development stack or another test file uses is touched.
 */
export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const startedAt = Date.now();
  const mode = options.mode ?? "development";
  const logLevel = process.env.SYSTEM_TEST_LOG_LEVEL ?? options.logLevel ?? "warn";
  const echo = options.echo ?? (process.env.SYSTEM_TEST_ECHO === "1" ? process.stderr : undefined);
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  try {
    const databases = await createServiceDatabases(options.label);
    cleanups.push(
      () => databases.gateway.drop(),
      () => databases.filing.drop(),
      () => databases.billing.drop(),
      () => databases.notifier.drop(),
    );
    const dashboardDatabase = options.dashboard ? await createDashboardDatabase(options.label) : undefined;
    if (dashboardDatabase) cleanups.push(() => dashboardDatabase.drop());
    timing(`${options.label}: databases in ${seconds(Date.now() - startedAt)}`);
    const vhost = await createTestVhost(`sys-${options.label}`);
    timing(`${options.label}: vhost at ${seconds(Date.now() - startedAt)}`);
    cleanups.push(() => vhost.delete());
    const redis = createTestRedisPrefix(`sys-${options.label}`);
    cleanups.push(() => redis.cleanup());

    const replicaCount = (name: AppName): number => (name === "authority-sim" ? 1 : (options.replicas?.[name] ?? 1));
    const ports = {} as Record<AppName, number[]>;
    for (const name of APP_NAMES) {
      ports[name] = [];
      for (let replica = 0; replica < replicaCount(name); replica++) ports[name].push(await getFreePort());
    }
    const baseUrl = (name: AppName, replica = 0): string => {
      const port = ports[name][replica];
      if (port === undefined) throw new Error(`${name} has no replica ${replica}`);
      return `http://127.0.0.1:${port}`;
    };
    const sim = baseUrl("authority-sim");
    const secrets = {
      pepper: randomBytes(32).toString("hex"),
      sealingKey: randomBytes(32).toString("base64"),
      webhookSecret: randomBytes(32).toString("hex"),
      notifierSealingKey: randomBytes(32).toString("base64"),
      paymentProviderKey: randomBytes(24).toString("hex"),
    };
    const common: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: mode,
      LOG_LEVEL: logLevel,
      LOG_FORMAT: "json",
      SHUTDOWN_TIMEOUT_MS: "20000",
      CREDENTIALS_SEALING_KEY: secrets.sealingKey,
      CREDENTIALS_SEALING_KEY_ID: "sys1",
    };
    const bus = { AMQP_URL: vhost.url };
    const cache = { REDIS_URL: testInfra.redisUrl, REDIS_KEY_PREFIX: redis.prefix };
    const production = mode === "production" ? productionEnv(sim) : {};
    const envOf: Record<AppName, Record<string, string>> = {
      // The simulator's payment-provider stand-in (top-ups through its checkout; off in production)
      // signs its webhook to the first billing replica with billing's secret.
      "authority-sim": {
        SIM_HOST: "127.0.0.1",
        SIM_TIMING: "fast",
        SIM_PAYMENT_PROVIDER_API_KEY: secrets.paymentProviderKey,
        SIM_PAYMENT_WEBHOOK_URL: `${baseUrl("billing")}/webhooks/payments`,
        SIM_PAYMENT_WEBHOOK_SECRET: secrets.webhookSecret,
      },
      "tax-submitter": { ...bus, ...cache, OPS_HOST: "127.0.0.1", TAX_BASE_URL: `${sim}/tax` },
      "registry-submitter": {
        ...bus,
        ...cache,
        OPS_HOST: "127.0.0.1",
        REGISTRY_GATEWAY_URL: `${sim}/registry`,
      },
      billing: {
        ...bus,
        BILLING_DATABASE_URL: databases.billing.url,
        BILLING_HOST: "127.0.0.1",
        PAYMENT_WEBHOOK_SECRET: secrets.webhookSecret,
        PAYMENT_PROVIDER_URL: `${sim}/payment-provider/v1`,
        PAYMENT_PROVIDER_API_KEY: secrets.paymentProviderKey,
      },
      filing: {
        ...bus,
        ...cache,
        FILING_DATABASE_URL: databases.filing.url,
        REGISTRY_DATA_URL: `${sim}/registry-data`,
        OPS_HOST: "127.0.0.1",
      },
      notifier: {
        ...bus,
        NOTIFIER_DATABASE_URL: databases.notifier.url,
        NOTIFIER_HOST: "127.0.0.1",
        NOTIFIER_SEALING_KEY: secrets.notifierSealingKey,
      },
      gateway: {
        ...bus,
        ...cache,
        GATEWAY_DATABASE_URL: databases.gateway.url,
        HOST: "127.0.0.1",
        API_KEY_PEPPER: secrets.pepper,
      },
    };
    const replicas = Object.fromEntries(
      APP_NAMES.map((name) => [
        name,
        ports[name].map(
          (port, replica) =>
            new AppProcess({
              name,
              env: { ...common, ...envOf[name], [PORT_VARIABLE[name]]: String(port), ...production[name], ...options.env?.[name] },
              readyUrl: `${baseUrl(name, replica)}/readyz`,
              ...(options.nodeArgs?.[name] ? { nodeArgs: options.nodeArgs[name] } : {}),
              ...(echo ? { echo } : {}),
            }),
        ),
      ]),
    ) as Record<AppName, AppProcess[]>;
    const apps = Object.fromEntries(APP_NAMES.map((name) => [name, replicas[name][0]])) as Record<AppName, AppProcess>;
    const everyProcess = APP_NAMES.flatMap((name) => replicas[name]);
    // Reverse start order on the way down: the gateway stops taking requests first.
    cleanups.push(async () => {
      for (const app of [...everyProcess].reverse()) await app.stop();
    });
    // Every app declares what it needs on the bus itself, so they can start side by side.
    await Promise.all(
      everyProcess.map(async (app) => {
        await app.start();
        timing(`${options.label}: ${app.name} ready at ${seconds(Date.now() - startedAt)}`);
      }),
    );

    const gatewayUrls = replicas.gateway.map((_, replica) => baseUrl("gateway", replica));
    const gatewayUrl = baseUrl("gateway");
    let dashboard: AppProcess | undefined;
    let dashboardUrl: string | undefined;
    if (dashboardDatabase) {
      const port = await getFreePort();
      dashboardUrl = `http://127.0.0.1:${port}`;
      const extra = typeof options.dashboard === "object" ? options.dashboard.env : undefined;
      const app = new AppProcess({
        name: "dashboard",
        env: {
          ...common,
          ...bus,
          REDIS_URL: testInfra.redisUrl,
          DASHBOARD_REDIS_PREFIX: `${redis.prefix}dashboard:`,
          DASHBOARD_DATABASE_URL: dashboardDatabase.url,
          DASHBOARD_HOST: "127.0.0.1",
          DASHBOARD_PORT: String(port),
          DASHBOARD_PUBLIC_URL: dashboardUrl,
          // "Top up" redirects to the simulator's checkout stand-in (the CSP's form-action allows it).
          DASHBOARD_PAYMENT_CHECKOUT_ORIGINS: sim,
          ...extra,
        },
        readyUrl: `${dashboardUrl}/readyz`,
        ...(echo ? { echo } : {}),
      });
      dashboard = app;
      // Last of every process: stopped first on the way down (it calls the gateway and billing), in crash reports.
      everyProcess.push(app);
      await app.start();
    }
    timing(`${options.label}: started in ${seconds(Date.now() - startedAt)}, ${cpuSeconds(everyProcess)} of CPU`);
    const system: RunningSystem = {
      gatewayUrl,
      gatewayUrls,
      dashboardUrl,
      dashboard,
      sim: new SimControl(sim),
      billing: billingAdmin(databases.billing.url),
      apps,
      replicas: (name) => replicas[name],
      opsUrl: baseUrl,
      databases,
      vhost,
      redis,
      createAccount: (input) =>
        createSystemAccount(
          { gatewayDatabaseUrl: databases.gateway.url, billingDatabaseUrl: databases.billing.url, apiKeyPepper: secrets.pepper },
          input,
        ),
      client: (apiKey) => new ApiClient(gatewayUrl, apiKey),
      async crash(app, { downMs = 0 } = {}) {
        await apps[app].kill9();
        if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
        await apps[app].start();
      },
      crashReport: () =>
        everyProcess
          .filter((app) => app.unexpectedExits.length > 0)
          .map((app) => `${app.name} (pid ${app.pid}) exited unexpectedly (${app.unexpectedExits.join(", ")}):\n${app.logTail()}`)
          .join("\n\n"),
      async stop() {
        const stopping = Date.now();
        await cleanup();
        timing(`${options.label}: stopped in ${seconds(Date.now() - stopping)}, ${seconds(Date.now() - startedAt)} after its start began`);
      },
    };
    return system;
  } catch (error) {
    await cleanup();
    throw error;
  }
}
