import { createConnection, createServer, type Server, type Socket } from "node:net";
import { getFreePort } from "./wait.ts";

/**
 * A TCP port that refuses connections until `open()`, then forwards each connection to `target`
 * (a real Postgres, Redis or RabbitMQ): tests of start-up point a service at `url(...)` to see it
 * wait for a dependency that is not there yet, then make the dependency reachable.
 */
export interface DelayedTcpProxy {
  readonly port: number;
  /** `url` with its port replaced by the proxy's. */
  url(url: string): string;
  /** Starts listening and forwarding. */
  open(): Promise<void>;
  /** Stops listening and cuts every forwarded connection. */
  close(): Promise<void>;
}

export async function createDelayedTcpProxy(target: { host?: string; port: number }): Promise<DelayedTcpProxy> {
  const port = await getFreePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  return {
    port,
    url(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    async open() {
      const listening = createServer((client) => {
        const upstream = createConnection({ host: target.host ?? "127.0.0.1", port: target.port });
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      server = listening;
      await new Promise<void>((resolve, reject) => {
        listening.once("error", reject);
        listening.listen(port, "127.0.0.1", () => resolve());
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      const listening = server;
      server = undefined;
      if (listening) await new Promise<void>((resolve) => listening.close(() => resolve()));
    },
  };
}
