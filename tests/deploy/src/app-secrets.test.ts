import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { containersOf, type K8sObject, loadManifests, ofKind } from "./k8s-manifests.ts";
import { appNames, readYaml } from "./repo.ts";
import { runCheckSettings } from "./support/run-settings.ts";

// Least privilege, checked against the code: each app's containers (Kubernetes and
// docker-compose) get only settings that app's code reads (its src/env.ts schema; a migration init
// container: its src/db/settings.ts), so no app holds another's database URL, sealing key, pepper
// or webhook secret; each Secret belongs to one app; and each app's database URL and AMQP URL
// name its own Postgres role and database (infra/postgres/init.sql) and its own RabbitMQ user
// (infra/rabbitmq/definitions.json). k8s-settings.test.ts and compose.test.ts check the other way:
// every setting an app requires is given.
const { objects, external } = loadManifests();
const all = [...objects, ...external];
const deployments = ofKind(objects, "Deployment");
const compose = readYaml<{ services: Record<string, { environment?: Record<string, string> }> }>("docker-compose.yml");
/** Read by service-kit for every process (its baseEnvSchema), and OpenTelemetry's standard variables (docs/operations/tracing.md). */
const BASE_SETTINGS = ["NODE_ENV", "LOG_LEVEL", "LOG_FORMAT", "SERVICE_VERSION", "SHUTDOWN_TIMEOUT_MS"];
const readByEveryProcess = (name: string) => BASE_SETTINGS.includes(name) || name.startsWith("OTEL_");
/** Apps with a database: <APP>_DATABASE_URL, role <app>, database dormant_<app>. */
const DATABASE_APPS = ["gateway", "filing", "billing", "notifier", "dashboard"];
const roles = new Map<string, object>(PLATFORM_TOPOLOGY.services.map((role) => [role.service, role]));

const read = new Map<string, Set<string>>();
const readByMigration = new Map<string, Set<string>>();
beforeAll(async () => {
  const settingsRead = await runCheckSettings<Record<string, { read: string[]; migrate?: string[] }>>(["--read"]);
  for (const [app, settings] of Object.entries(settingsRead)) {
    read.set(app, new Set(settings.read));
    if (settings.migrate) readByMigration.set(app, new Set(settings.migrate));
  }
  expect([...read.keys()].sort()).toEqual(appNames());
}, 120_000);

type Source = { configMapRef?: { name: string }; secretRef?: { name: string } };
type Variable = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
type Container = { name: string; envFrom?: Source[]; env?: Variable[] };

function dataOf(kind: string, name: string): Record<string, string> {
  const object = all.find((candidate) => candidate.kind === kind && candidate.metadata.name === name) as
    | (K8sObject & { data?: Record<string, string>; stringData?: Record<string, string> })
    | undefined;
  return { ...object?.data, ...object?.stringData };
}

/** A container's variables, each with the Secret it comes from (undefined: a ConfigMap or a literal). */
function variablesOf(container: Container): Array<{ name: string; secret?: string; value?: string }> {
  const variables: Array<{ name: string; secret?: string; value?: string }> = [];
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef)
      for (const [name, value] of Object.entries(dataOf("ConfigMap", source.configMapRef.name))) variables.push({ name, value });
    if (source.secretRef) {
      const secret = source.secretRef.name;
      for (const [name, value] of Object.entries(dataOf("Secret", secret))) variables.push({ name, secret, value });
    }
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    variables.push(
      ref
        ? { name: variable.name, secret: ref.name, value: dataOf("Secret", ref.name)[ref.key] }
        : { name: variable.name, value: variable.value },
    );
  }
  return variables;
}

/** What a URL names: its user and its path (the database, or the vhost). */
function identityIn(url: string | undefined): { user: string; path: string } {
  const parsed = new URL(url ?? "invalid:");
  return { user: decodeURIComponent(parsed.username), path: decodeURIComponent(parsed.pathname.replace(/^\//, "")) };
}

describe("infra/k8s: each app's containers get what its code reads, from Secrets of its own", () => {
  it("gives no container a setting its code does not read (no other app's database, key or secret)", () => {
    const unread: string[] = [];
    for (const deployment of deployments) {
      const app = deployment.metadata.name;
      const pod = deployment.spec.template.spec;
      for (const container of (pod.containers ?? []) as Container[]) {
        for (const { name } of variablesOf(container)) {
          if (!read.get(app)?.has(name) && !readByEveryProcess(name)) unread.push(`${app}/${container.name}: ${name}`);
        }
      }
      // A migration reads its database's URL only; the shared ConfigMap's settings are not secret.
      for (const container of (pod.initContainers ?? []) as Container[]) {
        for (const { name, secret } of variablesOf(container)) {
          const allowed = readByMigration.get(app)?.has(name) || (secret === undefined && readByEveryProcess(name));
          if (!allowed) unread.push(`${app}/${container.name}: ${name}`);
        }
      }
    }
    expect(unread).toEqual([]);
  });

  it("refers each app to Secrets no other app refers to", () => {
    const users = new Map<string, Set<string>>();
    for (const deployment of deployments) {
      for (const container of containersOf(deployment) as Container[]) {
        for (const { secret } of variablesOf(container)) {
          if (secret) users.set(secret, new Set([...(users.get(secret) ?? []), deployment.metadata.name]));
        }
      }
    }
    const shared = [...users].filter(([, apps]) => apps.size > 1).map(([secret, apps]) => `${secret}: ${[...apps].join(", ")}`);
    expect(shared).toEqual([]);
    for (const [secret, apps] of users) expect(secret, [...apps].join()).toMatch(/^dormant-/);
  });

  it("does not give the dashboard any sealing key, nor the notifier billing's database (the issue's examples)", () => {
    const names = (app: string) =>
      containersOf(deployments.find((deployment) => deployment.metadata.name === app)!).flatMap((container) =>
        variablesOf(container as Container).map((variable) => variable.name),
      );
    expect(names("dashboard")).not.toContain("CREDENTIALS_SEALING_KEY");
    expect(names("dashboard")).not.toContain("NOTIFIER_SEALING_KEY");
    expect(names("notifier")).not.toContain("BILLING_DATABASE_URL");
    expect(names("notifier")).not.toContain("PAYMENT_WEBHOOK_SECRET");
    expect(names("gateway")).not.toContain("NOTIFIER_SEALING_KEY");
  });

  it("connects each app as its own Postgres role to its own database, and as its own RabbitMQ user", () => {
    for (const deployment of deployments) {
      const app = deployment.metadata.name;
      const variables = containersOf(deployment).flatMap((container) => variablesOf(container as Container));
      const value = (name: string) => variables.find((variable) => variable.name === name)?.value;
      if (DATABASE_APPS.includes(app)) {
        expect(identityIn(value(`${app.toUpperCase()}_DATABASE_URL`)), app).toEqual({ user: app, path: `dormant_${app}` });
      }
      if (read.get(app)?.has("AMQP_URL")) {
        expect(roles.has(app), `${app} connects to the bus: PLATFORM_TOPOLOGY.services needs its role`).toBe(true);
        expect(identityIn(value("AMQP_URL")).user, app).toBe(`dormant-${app}`);
      }
    }
  });

  it("gives KEDA a RabbitMQ user of its own, whose role permits nothing but connecting", () => {
    for (const auth of ofKind(objects, "TriggerAuthentication")) {
      for (const ref of auth.spec.secretTargetRef) expect(identityIn(dataOf("Secret", ref.name)[ref.key]).user).toBe("dormant-keda");
    }
    expect(roles.get("keda")).toMatchObject({ consumes: [], serves: [], publishesTo: [], calls: [] });
  });

  it("sets the gateway's trusted proxy hops (it runs behind the ingress)", () => {
    const gateway = deployments.find((deployment) => deployment.metadata.name === "gateway")!;
    const hops = variablesOf(gateway.spec.template.spec.containers[0] as Container).find(
      (variable) => variable.name === "TRUST_PROXY_HOPS",
    );
    expect(Number(hops?.value)).toBeGreaterThanOrEqual(1);
  });

  it("gives the MCP client-address secret to the gateway and the MCP server only, and the MCP server its proxy hops", () => {
    const holders = deployments
      .filter((deployment) =>
        containersOf(deployment).some((container) =>
          variablesOf(container as Container).some((variable) => variable.name === "MCP_CLIENT_ADDRESS_SECRET"),
        ),
      )
      .map((deployment) => deployment.metadata.name);
    expect(holders.sort()).toEqual(["gateway", "mcp"]);
    const mcp = variablesOf(
      deployments.find((deployment) => deployment.metadata.name === "mcp")!.spec.template.spec.containers[0] as Container,
    );
    expect(mcp.find((variable) => variable.name === "MCP_CLIENT_ADDRESS_SECRET")?.secret).toBe("dormant-mcp");
    expect(Number(mcp.find((variable) => variable.name === "MCP_TRUST_PROXY_HOPS")?.value)).toBeGreaterThanOrEqual(1);
  });
});

describe("docker-compose.yml: each app's service gets what its code reads", () => {
  const environmentOf = (app: string) => compose.services[app]?.environment ?? {};

  it("gives no app a setting its code does not read (no other app's database, key or secret)", () => {
    const unread = appNames().flatMap((app) =>
      Object.keys(environmentOf(app))
        .filter((name) => !read.get(app)?.has(name) && !readByEveryProcess(name))
        .map((name) => `${app}: ${name}`),
    );
    expect(unread).toEqual([]);
  });

  it("connects each app as its own Postgres role to its own database, and as its own RabbitMQ user", () => {
    for (const app of appNames()) {
      const environment = environmentOf(app);
      if (DATABASE_APPS.includes(app)) {
        expect(identityIn(environment[`${app.toUpperCase()}_DATABASE_URL`]), app).toEqual({ user: app, path: `dormant_${app}` });
      }
      if (read.get(app)?.has("AMQP_URL")) expect(identityIn(environment.AMQP_URL).user, app).toBe(`dormant-${app}`);
    }
  });

  it("gives the gateway and the MCP server the same client-address secret, and nobody else", () => {
    const holders = appNames().filter((app) => environmentOf(app).MCP_CLIENT_ADDRESS_SECRET !== undefined);
    expect(holders).toEqual(["gateway", "mcp"]);
    expect(environmentOf("mcp").MCP_CLIENT_ADDRESS_SECRET).toBe(environmentOf("gateway").MCP_CLIENT_ADDRESS_SECRET);
  });
});
