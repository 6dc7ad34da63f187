import { describe, expect, it } from "vitest";
import { appNames, readYaml } from "./repo.ts";
import { settingsProblems } from "./support/run-settings.ts";

// docker-compose.yml as Docker Compose reads it (anchors and merge keys resolved).
interface ComposeService {
  build?: { dockerfile?: string; args?: Record<string, string>; target?: string };
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  restart?: string;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const compose = readYaml<{ services: Record<string, ComposeService> }>("docker-compose.yml");
const services = compose.services;

/** The port an app's readiness endpoint answers on, from its own environment. */
function readinessUrl(app: string, environment: Record<string, string>): string {
  const port = ["PORT", "OPS_PORT", "BILLING_PORT", "NOTIFIER_PORT", "MCP_PORT", "DASHBOARD_PORT", "SIM_PORT"]
    .filter((name) => (name === "PORT" ? app === "gateway" : true))
    .map((name) => environment[name])
    .find((value) => value !== undefined);
  return `http://127.0.0.1:${port}/readyz`;
}

describe("docker-compose.yml", () => {
  it("runs every app from its production image, restarting it, healthy only when /readyz answers", () => {
    for (const app of appNames()) {
      const service = services[app];
      expect(service, app).toBeDefined();
      expect(service!.build?.args?.APP).toBe(app);
      expect(service!.build?.dockerfile).toBe("infra/docker/Dockerfile");
      expect(service!.build?.target).toBeUndefined();
      expect(service!.restart).toBe("unless-stopped");
      const probe = service!.healthcheck?.test.join(" ") ?? "";
      expect(probe, app).toContain(readinessUrl(app, service!.environment ?? {}));
    }
  });

  it("waits for the healthy state of every service an app depends on (for a one-shot job: its success)", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, condition] of Object.entries(service.depends_on ?? {})) {
        expect(services[dependency], `${name} -> ${dependency}`).toBeDefined();
        if (services[dependency]!.restart === "no") {
          expect(condition.condition, `${name} -> ${dependency}`).toBe("service_completed_successfully");
          continue;
        }
        expect(services[dependency]!.healthcheck, `${dependency} health check`).toBeDefined();
        expect(condition.condition).toBe("service_healthy");
      }
    }
  });

  it("creates each app's RabbitMQ user before the apps start, with the password in that app's AMQP_URL", () => {
    const job = services["rabbitmq-users"]!;
    expect(job.build?.target).toBe("workspace");
    expect((job as { command?: string[] }).command).toContain("--passwords-from-env");
    for (const app of appNames()) {
      const url = services[app]!.environment?.AMQP_URL;
      if (!url) continue;
      expect(services[app]!.depends_on?.["rabbitmq-users"]?.condition, app).toBe("service_completed_successfully");
      const { username, password } = new URL(url);
      const variable = `AMQP_PASSWORD_${username
        .replace(/^dormant-/, "")
        .toUpperCase()
        .replace(/-/g, "_")}`;
      expect(job.environment?.[variable], `${app}: ${variable}`).toBe(decodeURIComponent(password));
    }
  });

  it("gives each app's database role the password in that app's database URL (set-passwords.sh at first start)", () => {
    const postgres = services.postgres!.environment ?? {};
    for (const app of appNames()) {
      const url = services[app]!.environment?.[`${app.toUpperCase()}_DATABASE_URL`];
      if (!url) continue;
      expect(postgres[`${app.toUpperCase()}_DB_PASSWORD`], app).toBe(decodeURIComponent(new URL(url).password));
    }
  });

  it("gives every app the settings it requires in production", async () => {
    const environments = Object.fromEntries(appNames().map((app) => [app, services[app]!.environment ?? {}]));
    for (const [app, environment] of Object.entries(environments)) expect(environment.NODE_ENV, app).toBe("production");
    expect(await settingsProblems(environments)).toEqual(Object.fromEntries(appNames().map((app) => [app, ""])));
  }, 120_000);

  it("wires top-ups end to end: billing -> the simulator's checkout stand-in -> billing's webhook, the page allowed by the dashboard", () => {
    const env = (name: string) => services[name]!.environment ?? {};
    const provider = new URL(env("billing").PAYMENT_PROVIDER_URL ?? "");
    expect(provider.host).toBe("authority-sim:4100");
    expect(provider.pathname).toBe("/payment-provider/v1");
    const sim = env("authority-sim");
    expect(sim.SIM_PAYMENT_PROVIDER).toBe("on");
    expect(sim.PAYMENT_PROVIDER_API_KEY).toBe(env("billing").PAYMENT_PROVIDER_API_KEY);
    expect(sim.PAYMENT_WEBHOOK_SECRET).toBe(env("billing").PAYMENT_WEBHOOK_SECRET);
    expect(sim.SIM_PAYMENT_WEBHOOK_URL).toBe(`http://billing:${env("billing").BILLING_PORT}/webhooks/payments`);
    const checkout = new URL(sim.SIM_PAYMENT_CHECKOUT_PUBLIC_URL ?? "");
    expect(env("dashboard").DASHBOARD_PAYMENT_CHECKOUT_ORIGINS?.split(",")).toContain(checkout.origin);
    const published = (compose.services["authority-sim"] as { ports?: string[] }).ports ?? [];
    expect(published).toContain(`${checkout.port}:${sim.SIM_PORT}`);
  });

  it("gives the admin commands every database they touch (create-account spans gateway and billing)", () => {
    const admin = services.admin!;
    expect(admin.profiles).toEqual(["tools"]);
    expect(admin.build?.target).toBe("workspace");
    for (const variable of ["GATEWAY_DATABASE_URL", "BILLING_DATABASE_URL", "NOTIFIER_DATABASE_URL", "API_KEY_PEPPER", "AMQP_URL"]) {
      expect(admin.environment?.[variable], variable).toBeTruthy();
    }
  });
});
