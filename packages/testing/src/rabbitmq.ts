import { spawn } from "node:child_process";
import { safeLabel, testInfra, uniqueSuffix } from "./infra-urls.ts";

const RABBITMQCTL_TIMEOUT_MS = 30_000;

/**
 * Runs rabbitmqctl in a process group of its own and, past the timeout, kills the whole group.
 * rabbitmqctl is a shell script that starts an Erlang VM (through `su` as root): killing only the
 * script, as execFile's timeout does, left the VMs running, and a few dozen of them hold every
 * port the broker keeps for its command-line tools, after which no rabbitmqctl works at all (seen
 * 2026-11-28 with several suites creating vhosts at once).
 */
function rabbitmqctl(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("rabbitmqctl", ["-q", ...args], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      reject(new Error(`rabbitmqctl ${args[0]} did not finish within ${RABBITMQCTL_TIMEOUT_MS} ms`));
    }, RABBITMQCTL_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`rabbitmqctl ${args[0]} exited with ${code}: ${stderr.trim()}`));
    });
  });
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
