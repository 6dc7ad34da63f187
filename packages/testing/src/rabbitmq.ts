import { type SpawnOptions, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { safeLabel, testInfra, uniqueSuffix } from "./infra-urls.ts";

const RABBITMQCTL_TIMEOUT_MS = 30_000;
/** The real rabbitmqctl behind Debian's wrapper (/usr/sbin/rabbitmqctl, which `su`s to it as root). */
const DEBIAN_RABBITMQCTL = "/usr/lib/rabbitmq/bin/rabbitmqctl";
const RABBITMQ_HOME = "/var/lib/rabbitmq";

/** The rabbitmq user's uid and gid from /etc/passwd, or undefined. */
function rabbitmqUser(): { uid: number; gid: number } | undefined {
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("rabbitmq:"));
    const [, , uid, gid] = line?.split(":") ?? [];
    return uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How to start rabbitmqctl so that every process it makes stays in the process group we kill.
 * As root on a Debian install, the wrapper would `su` to the rabbitmq user, whose shell leaves
 * our group (an orphaned `sh -c` and its Erlang VM survived the group kill); so root runs the
 * real script directly as that user, as the wrapper does, minus `su`. Otherwise the wrapper.
 */
function rabbitmqctlCommand(): { file: string; options: SpawnOptions } {
  const user = process.getuid?.() === 0 && existsSync(DEBIAN_RABBITMQCTL) ? rabbitmqUser() : undefined;
  if (!user) return { file: "rabbitmqctl", options: {} };
  return {
    file: DEBIAN_RABBITMQCTL,
    options: { ...user, cwd: RABBITMQ_HOME, env: { ...process.env, HOME: RABBITMQ_HOME, USER: "rabbitmq", LOGNAME: "rabbitmq" } },
  };
}

/**
 * Runs rabbitmqctl in a process group of its own and, past the timeout, kills the whole group.
 * rabbitmqctl is a shell script that starts an Erlang VM (see rabbitmqctlCommand): killing only the
 * script, as execFile's timeout does, left the VMs running, and a few dozen of them hold every
 * port the broker keeps for its command-line tools, after which no rabbitmqctl works at all (seen
 * 2026-11-28 with several suites creating vhosts at once).
 */
function rabbitmqctl(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const command = rabbitmqctlCommand();
    const child = spawn(command.file, ["-q", ...args], { ...command.options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
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
  /**
   * Imports RabbitMQ definitions (`rabbitmqctl import_definitions`), e.g. the platform's users and
   * permissions rendered for this vhost. Users are global to the broker: their names must start
   * with this vhost's name, and they are deleted with it.
   */
  importDefinitions(definitions: { users?: Array<{ name: string }> }): Promise<void>;
  /** The vhost's AMQP URL for another user. */
  urlFor(user: string, password: string): string;
  /** Deletes the vhost and the users importDefinitions created. */
  delete(): Promise<void>;
}

/** `rabbitmqctl import_definitions` of `definitions`, through a file named after `vhost`. */
async function importDefinitionsFile(vhost: string, definitions: object): Promise<void> {
  const file = join(tmpdir(), `${vhost}-definitions-${uniqueSuffix()}.json`);
  // rabbitmqctl may run as the rabbitmq user (rabbitmqctlCommand): the file must be readable to it.
  writeFileSync(file, JSON.stringify(definitions), { mode: 0o644 });
  try {
    await rabbitmqctl("import_definitions", file);
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * A RabbitMQ virtual host of its own for one test file: queues and exchanges of concurrent tests
 * (and of a running development stack) never meet. Uses rabbitmqctl on this machine.
 */
export async function createTestVhost(label: string): Promise<TestVhost> {
  const vhost = `dormant-test-${safeLabel(label)}-${uniqueSuffix()}`;
  const user = decodeURIComponent(new URL(testInfra.amqpBaseUrl).username || "guest");
  // The vhost and the test user's permissions on it in one rabbitmqctl (one definitions import)
  // instead of two (add_vhost, set_permissions): each is an Erlang VM start, over a CPU-second,
  // and the suite makes a vhost per test file or more.
  await importDefinitionsFile(vhost, {
    vhosts: [{ name: vhost }],
    permissions: [{ user, vhost, configure: ".*", write: ".*", read: ".*" }],
  });
  const url = new URL(testInfra.amqpBaseUrl);
  url.pathname = `/${encodeURIComponent(vhost)}`;
  const users = new Set<string>();
  return {
    vhost,
    url: url.toString(),
    dropConnections: async () => {
      await rabbitmqctl("close_all_connections", "--vhost", vhost, "--limit", "1000", "test drops the connection");
    },
    importDefinitions: async (definitions) => {
      const names = (definitions.users ?? []).map((user) => user.name);
      const foreign = names.filter((name) => !name.startsWith(vhost));
      if (foreign.length > 0) throw new Error(`test users must be named after their vhost (${vhost}...): ${foreign.join(", ")}`);
      for (const name of names) users.add(name);
      await importDefinitionsFile(vhost, definitions);
    },
    urlFor: (user, password) => {
      const other = new URL(url);
      other.username = encodeURIComponent(user);
      other.password = encodeURIComponent(password);
      return other.toString();
    },
    delete: async () => {
      // A few rabbitmqctl at a time (each is an Erlang VM taking seconds to start on a busy machine).
      const names = [...users, undefined];
      for (let i = 0; i < names.length; i += 3) {
        await Promise.all(
          names
            .slice(i, i + 3)
            .map((user) =>
              (user === undefined ? rabbitmqctl("delete_vhost", vhost) : rabbitmqctl("delete_user", user)).catch(() => undefined),
            ),
        );
      }
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

/** Deletes users that tests left behind (importDefinitions names them after their `dormant-test-` vhost). */
export async function deleteLeftoverTestUsers(): Promise<number> {
  const out = await rabbitmqctl("list_users", "--no-table-headers");
  const stale = out
    .split("\n")
    .map((line) => line.split("\t")[0]?.trim() ?? "")
    .filter((name) => name.startsWith("dormant-test-"));
  for (const user of stale) await rabbitmqctl("delete_user", user).catch(() => undefined);
  return stale.length;
}
