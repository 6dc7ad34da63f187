import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the listener does with its n-th request (1-based): answer with a status (and headers), or hang. */
export type ListenerBehaviour = (
  n: number,
  request: ReceivedWebhook,
) => { status: number; headers?: Record<string, string>; body?: string } | "hang";

/**
 * Test support: a real local HTTP server standing in for an agent's webhook endpoint; it records
 * every request (headers and raw body) and answers as `behaviour` says (200 by default). `host`:
 * another loopback address (127.0.0.2, ...) stands for another destination host.
 */
export async function startListener(behaviour: ListenerBehaviour = () => ({ status: 200 }), host = "127.0.0.1") {
  const received: ReceivedWebhook[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(request);
      const answer = behaviour(received.length, request);
      if (answer === "hang") {
        hanging.push(res);
        return;
      }
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      res.end(answer.body ?? "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/hooks`,
    received,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type Listener = Awaited<ReturnType<typeof startListener>>;
