import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { safeLabel, testInfra, uniqueSuffix } from "./infra-urls.ts";

const run = promisify(execFile);

async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await run("rabbitmqctl", ["-q", ...args], { timeout: 30_000 });
  return stdout;
}

export interface TestVhost {
  vhost: string;
  /** AMQP URL pointing at the vhost. */
  url: string;
  /** Forcibly closes every client connection to the vhost (as a broker restart would). */
  dropConnections(): Promise<void>;
  delete(): Promise<void>;
}

/**
 * A RabbitMQ virtual host of its own for one test file: queues and exchanges of concurrent tests
 * (and of a running development stack) never meet. Uses rabbitmqctl on this machine.
 */
export async function createTestVhost(label: string): Promise<TestVhost> {
  const vhost = `dormant-test-${safeLabel(label)}-${uniqueSuffix()}`;
  await rabbitmqctl("add_vhost", vhost);
  const user = decodeURIComponent(new URL(testInfra.amqpBaseUrl).username || "guest");
  await rabbitmqctl("set_permissions", "-p", vhost, user, ".*", ".*", ".*");
  const url = new URL(testInfra.amqpBaseUrl);
  url.pathname = `/${encodeURIComponent(vhost)}`;
  return {
    vhost,
    url: url.toString(),
    dropConnections: async () => {
      await rabbitmqctl("close_all_connections", "--vhost", vhost, "--limit", "1000", "test drops the connection");
    },
    delete: async () => {
      await rabbitmqctl("delete_vhost", vhost).catch(() => undefined);
    },
  };
}

/** Deletes vhosts left behind by earlier runs (called before a run). */
export async function deleteLeftoverTestVhosts(): Promise<number> {
  const out = await rabbitmqctl("list_vhosts", "name");
  const stale = out
    .split("\n")
    .map((l) => l.trim())
    .filter((name) => name.startsWith("dormant-test-"));
  for (const vhost of stale) await rabbitmqctl("delete_vhost", vhost).catch(() => undefined);
  return stale.length;
}
