import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSimApp, type SimAppOptions } from "./app.ts";
import type { SimConfig } from "./config.ts";
import type { SimContext } from "./context.ts";
import { PREFIX, REGISTRY_GATEWAY_PATH, TAX_PATHS } from "./authority-paths.ts";

export interface SimServer {
  server: Server;
  context: SimContext;
  /** e.g. http://127.0.0.1:4100 */
  url: string;
  urls: SimUrls;
  /**
   * Stops accepting connections, drops held (hung) requests at once, lets requests in progress
   * finish for up to `graceMs` (default 5 s), then closes whatever connection is left.
   */
  close(graceMs?: number): Promise<void>;
}

/** The base URL of each authority, as clients are configured with them. */
export interface SimUrls {
  tax: string;
  taxSubmission: string;
  taxPoll: string;
  registry: string;
  registryGateway: string;
  registryData: string;
  control: string;
}

export function simUrls(url: string): SimUrls {
  return {
    tax: `${url}${PREFIX.tax}`,
    taxSubmission: `${url}${PREFIX.tax}${TAX_PATHS.submission}`,
    taxPoll: `${url}${PREFIX.tax}${TAX_PATHS.poll}`,
    registry: `${url}${PREFIX.registry}`,
    registryGateway: `${url}${PREFIX.registry}${REGISTRY_GATEWAY_PATH}`,
    registryData: `${url}${PREFIX.registryData}`,
    control: `${url}${PREFIX.control}`,
  };
}

/** Starts the simulator on `config.host:config.port` (port 0 picks a free one). */
export async function startSimServer(config: SimConfig, options: SimAppOptions = {}): Promise<SimServer> {
  const { app, context } = createSimApp(config, options);
  const server = createServer(app);
  server.requestTimeout = 0; // hung requests are ended by the simulator itself (hangMs)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = config.publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    server,
    context,
    url,
    urls: simUrls(url),
    close: (graceMs = 5_000) =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        context.hanging.dropAll();
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), graceMs).unref();
      }),
  };
}
