import { execFile } from "node:child_process";
import { connect } from "node:net";
import { promisify } from "node:util";
import { testInfra } from "@dormant/testing";

const run = promisify(execFile);

async function rabbitmqctl(...args: string[]): Promise<void> {
  await run("rabbitmqctl", ["-q", ...args], { timeout: 120_000 });
}

function amqpPortOpen(): Promise<boolean> {
  const url = new URL(testInfra.amqpBaseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname || "127.0.0.1", port: Number(url.port || 5672) });
    const done = (open: boolean) => (socket.destroy(), resolve(open));
    socket.setTimeout(1_000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Waits until the broker accepts AMQP connections again (its port answers and the app is running). */
export async function waitForBroker(timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await amqpPortOpen()) {
      try {
        await rabbitmqctl("await_startup");
        return;
      } catch {
        // node not booted yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`RabbitMQ did not accept connections within ${timeoutMs} ms`);
}

/**
 * A real broker restart: `rabbitmqctl stop_app` (every connection of every vhost drops), a
 * pause of `downMs`, then `start_app`, and back only once it accepts connections. The start is
 * in a finally block: the broker is left running even when stopping failed half-way.
 */
export async function restartBroker({ downMs = 2_000 }: { downMs?: number } = {}): Promise<void> {
  try {
    await rabbitmqctl("stop_app");
    await new Promise((resolve) => setTimeout(resolve, downMs));
  } finally {
    await rabbitmqctl("start_app");
    await waitForBroker();
  }
}
