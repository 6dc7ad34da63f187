// Checks that Postgres, Redis and RabbitMQ answer, and (when asked) starts the ones that do not
// with the commands this kind of machine documents. Used by .ci/run, npm start and npm test.
import { execSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import { log } from "./util.mjs";

function portOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

function hostPort(url, defaultPort) {
  const parsed = new URL(url);
  return { host: parsed.hostname || "127.0.0.1", port: Number(parsed.port || defaultPort) };
}

export function infraServers(env = process.env) {
  return [
    {
      name: "PostgreSQL",
      ...hostPort(env.POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres", 5432),
      start: () => {
        const versions = existsSync("/etc/postgresql") ? readdirSync("/etc/postgresql") : [];
        if (versions.length === 0) throw new Error("no local PostgreSQL cluster in /etc/postgresql");
        return `pg_ctlcluster --skip-systemctl-redirect ${versions[0]} main start`;
      },
    },
    {
      name: "Redis",
      ...hostPort(env.REDIS_URL ?? "redis://127.0.0.1:6379", 6379),
      start: () => 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
    },
    {
      name: "RabbitMQ",
      ...hostPort(env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672", 5672),
      start: () => "rabbitmq-server -detached",
    },
  ];
}

async function waitForPort(host, port, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await portOpen(host, port)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** Resolves when every server answers; starts missing ones when `start` is true, else explains. */
export async function ensureInfra({ start = false } = {}) {
  const missing = [];
  for (const server of infraServers()) {
    if (await portOpen(server.host, server.port)) continue;
    if (!start) {
      missing.push(server);
      continue;
    }
    const command = server.start();
    log(`${server.name} is not answering on ${server.host}:${server.port}; starting it: ${command}`);
    try {
      execSync(command, { stdio: ["ignore", process.stderr, process.stderr] });
    } catch (error) {
      log(`could not start ${server.name}: ${error.message}`);
    }
    if (!(await waitForPort(server.host, server.port, 90))) missing.push(server);
  }
  if (missing.length > 0) {
    const lines = missing.map((s) => `  - ${s.name} on ${s.host}:${s.port} (start it with: ${s.start()})`);
    throw new Error(`these servers are not reachable:\n${lines.join("\n")}`);
  }
}
