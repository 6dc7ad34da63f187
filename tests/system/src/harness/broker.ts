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
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
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

/** Stops the broker's application (`rabbitmqctl stop_app`): every connection of every vhost drops. */
export async function stopBroker(): Promise<void> {
  await rabbitmqctl("stop_app");
}

/** Starts the broker's application again and waits until it accepts connections. */
export async function startBroker(): Promise<void> {
  await rabbitmqctl("start_app");
  await waitForBroker();
}
