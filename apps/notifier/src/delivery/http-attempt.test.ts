import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeWebhookConnections, postWebhook, RESPONSE_BODY_LIMIT_BYTES } from "./http-attempt.ts";

// Webhook attempts keep their connection for the next attempt to the same checked address and
// host, and only then: an answer cut short closes it, and another address gets its own.
describe("webhook attempt connections", () => {
  let server: Server;
  let port: number;
  /** The local address of each connection the endpoint accepted (the address the notifier connected to). */
  const connections: string[] = [];
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (req.url === "/long") res.end("x".repeat(RESPONSE_BODY_LIMIT_BYTES * 64));
        else res.writeHead(req.url === "/fail" ? 500 : 204).end();
      });
    });
    server.on("connection", (socket) => {
      connections.push(socket.localAddress ?? "");
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    closeWebhookConnections();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const attempt = (path: string, address = "127.0.0.1") =>
    postWebhook({
      url: new URL(`http://localhost:${port}${path}`),
      address: { address, family: 4 },
      headers: { "content-type": "application/json" },
      body: "{}",
      timeoutMs: 5_000,
    });

  it("reuses the connection of an answer read to its end, whatever its status, to the same address", async () => {
    connections.length = 0;
    expect(await attempt("/ok")).toMatchObject({ delivered: true, statusCode: 204 });
    expect(await attempt("/fail")).toMatchObject({ delivered: false, statusCode: 500 });
    expect(await attempt("/ok")).toMatchObject({ delivered: true, statusCode: 204 });
    expect(connections).toEqual(["127.0.0.1"]);
  });

  it("connects to the address checked for the attempt, never over another address's connection", async () => {
    connections.length = 0;
    expect(await attempt("/ok", "127.0.0.2")).toMatchObject({ delivered: true });
    expect(await attempt("/ok", "127.0.0.1")).toMatchObject({ delivered: true });
    expect(await attempt("/ok", "127.0.0.2")).toMatchObject({ delivered: true });
    // 127.0.0.1's connection is the one of the test above; 127.0.0.2 gets its own, once.
    expect(connections).toEqual(["127.0.0.2"]);
  });

  it("closes the connection of an answer cut short at the body limit: the next attempt opens another", async () => {
    connections.length = 0;
    const cut = await attempt("/long", "127.0.0.3");
    expect(cut).toMatchObject({ delivered: true, statusCode: 200 });
    expect(cut.responseBody).toHaveLength(RESPONSE_BODY_LIMIT_BYTES);
    expect(await attempt("/ok", "127.0.0.3")).toMatchObject({ delivered: true });
    expect(connections).toEqual(["127.0.0.3", "127.0.0.3"]);
  });
});
