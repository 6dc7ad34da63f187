import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { appNames, readYaml, repoPath } from "./repo.ts";

// docker-compose.yml as Docker Compose reads it (anchors and merge keys resolved).
interface ComposeService {
  build?: { dockerfile?: string; args?: Record<string, string>; target?: string };
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  restart?: string;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const run = promisify(execFile);
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

  it("waits for the healthy state of every service an app depends on", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, condition] of Object.entries(service.depends_on ?? {})) {
        expect(services[dependency], `${name} -> ${dependency}`).toBeDefined();
        expect(services[dependency]!.healthcheck, `${dependency} health check`).toBeDefined();
        expect(condition.condition).toBe("service_healthy");
      }
    }
  });

  it("gives every app the settings it requires in production", async () => {
    const checks = appNames().map(async (app) => {
      const environment = services[app]!.environment ?? {};
      expect(environment.NODE_ENV, app).toBe("production");
      const check = await run(process.execPath, ["--import", "tsx", repoPath("tests/deploy/src/support/check-settings.ts"), app], {
        env: { PATH: process.env.PATH ?? "", ...environment },
      }).then(
        () => "",
        (error: { stderr?: string; message: string }) => error.stderr?.trim() || error.message,
      );
      return `${app}: ${check}`;
    });
    expect(await Promise.all(checks)).toEqual(appNames().map((app) => `${app}: `));
  }, 60_000);

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
