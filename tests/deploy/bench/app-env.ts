/** Ports and production settings for running each app locally against the machine's servers. */
export const APP_PORTS: Record<string, { variable: string; port: number }> = {
  "authority-sim": { variable: "SIM_PORT", port: 4910 },
  gateway: { variable: "PORT", port: 4911 },
  filing: { variable: "OPS_PORT", port: 4912 },
  billing: { variable: "BILLING_PORT", port: 4913 },
  notifier: { variable: "NOTIFIER_PORT", port: 4914 },
  "tax-submitter": { variable: "OPS_PORT", port: 4915 },
  "registry-submitter": { variable: "OPS_PORT", port: 4916 },
  mcp: { variable: "MCP_PORT", port: 4917 },
  dashboard: { variable: "DASHBOARD_PORT", port: 4918 },
};

const SIM = `http://127.0.0.1:${APP_PORTS["authority-sim"]!.port}`;

/** The production settings of all apps in one environment, pointed at local servers (databases added per app); a bench, not a deployment: docker-compose.yml and infra/k8s give each app only its own. */
export function productionEnv(infra: { amqpUrl: string; redisUrl: string; redisPrefix: string }): Record<string, string> {
  return {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    REDIS_KEY_PREFIX: infra.redisPrefix,
    API_KEY_PEPPER: "bench-pepper-0123456789abcdefghijklmnopqrstuv",
    CREDENTIALS_SEALING_KEY_ID: "bench",
    CREDENTIALS_SEALING_KEY: Buffer.alloc(32, 1).toString("base64"),
    NOTIFIER_SEALING_KEY_ID: "bench",
    NOTIFIER_SEALING_KEY: Buffer.alloc(32, 2).toString("base64"),
    PAYMENT_WEBHOOK_SECRET: "bench-webhook-secret-0123456789abcdefghij",
    REGISTRY_DATA_URL: `${SIM}/registry-data`,
    TAX_BASE_URL: `${SIM}/tax`,
    TAX_VENDOR_ID: "0000",
    REGISTRY_GATEWAY_URL: `${SIM}/registry`,
    REGISTRY_PRESENTER_ID: "66666666666",
    REGISTRY_PRESENTER_AUTH_CODE: "SIMAUTHCODE",
    REGISTRY_PACKAGE_REFERENCE: "0012",
    HOST: "127.0.0.1",
    OPS_HOST: "127.0.0.1",
    BILLING_HOST: "127.0.0.1",
    NOTIFIER_HOST: "127.0.0.1",
    MCP_HOST: "127.0.0.1",
    SIM_HOST: "127.0.0.1",
    DASHBOARD_HOST: "127.0.0.1",
    DORMANT_API_URL: `http://127.0.0.1:${APP_PORTS.gateway!.port}/api/v1`,
  };
}
